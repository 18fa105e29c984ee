import { Link } from 'react-router';
import { LibraryDocumentList } from '@/components/documents/LibraryDocumentList';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { useProductsOverview } from '../api/get-products-overview';
import styles from './Products.module.css';

/** /products: segment tiles two per row, then the catalogue documents. */
export default function ProductsOverviewPage() {
  const query = useProductsOverview();
  useFailureToast(query.error);
  const data = query.data;
  return (
    <PageFrame title="Products" info="products" support>
      <div className={styles.page}>
        {query.isPending && <Loader />}
        {data && (
          <>
            <div className={styles.tiles}>
              {data.categories.map((s) => (
                <Link key={s.id} to={`/products/${s.id}`} className={styles.tile}>
                  <img src={s.preview} alt="" loading="lazy" />
                  <span className={styles.tileName}>
                    {s.red_label && <span className={styles.redLabel}>{s.red_label}</span>}
                    {s.red_label && <br />}
                    {s.name}
                  </span>
                </Link>
              ))}
            </div>
            {data.catalogues.documents.length > 0 && (
              <>
                <hr className={styles.separator} />
                <h2 className={styles.sectionTitle}>{data.catalogues.title}</h2>
                <LibraryDocumentList documents={data.catalogues.documents} />
              </>
            )}
          </>
        )}
      </div>
    </PageFrame>
  );
}
