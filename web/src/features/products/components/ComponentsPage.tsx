import { Link } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { useProductComponents } from '../api/get-product-components';
import styles from './Products.module.css';
import { useRouteId } from './useItemId';

/** /products/detail/{id}/components: the product's components (target of the component back link). */
export default function ComponentsPage() {
  const id = useRouteId('id');
  const query = useProductComponents(id ?? undefined);
  useFailureToast(query.error, { redirectTo: '/products', missingId: id === null });
  const data = query.data;

  return (
    <PageFrame
      title={data ? `${data.name}: components` : 'Components'}
      back={id ? `/products/detail/${id}` : '/products'}
    >
      <div className={styles.page}>
        {query.isPending && id && <Loader />}
        {data && data.list.length === 0 && <EmptyState title="No components for this product" />}
        {data && data.list.length > 0 && (
          <ul className={styles.list}>
            {data.list.map((c) => (
              <li key={c.id}>
                <Link to={`/products/detail/component/${c.id}`} className={styles.row}>
                  {c.preview && <img src={c.preview} alt="" loading="lazy" />}
                  <span className={styles.rowText}>
                    <span className={styles.rowName}>{c.title}</span>
                    <span className={styles.rowSub}>{c.material}</span>
                    <span className={c.sterile ? styles.sterile : styles.notSterile}>
                      {c.sterile ? 'Sterile' : 'Not sterile'}
                    </span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </PageFrame>
  );
}
