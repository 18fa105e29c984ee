import { LibraryDocumentList } from '@/components/documents/LibraryDocumentList';
import { EmptyState } from '@/components/EmptyState';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { useProductAttachments } from '../api/get-product-attachments';
import { productBackTarget } from '../navigation';
import { ProductTabs } from './ProductTabs';
import styles from './Products.module.css';
import { useRouteId } from './useItemId';

/** /products/detail/{id}/documents: the Documents tab (attachments by group). */
export default function ProductDocumentsPage() {
  const id = useRouteId('id');
  const query = useProductAttachments(id ?? undefined);
  useFailureToast(query.error, { redirectTo: '/products', missingId: id === null });
  const data = query.data;

  return (
    <PageFrame title={data?.name ?? 'Product'} back={data ? productBackTarget(data) : '/products'} support>
      <div className={styles.page}>
        {id && <ProductTabs id={id} />}
        {query.isPending && id && <Loader />}
        {data && data.attachments.length === 0 && <EmptyState title="No documents for this product" />}
        {data?.attachments.map((group) => (
          <section key={group.name} className={styles.block}>
            <h2 className={styles.blockTitle}>{group.name}</h2>
            <LibraryDocumentList documents={group.files} />
          </section>
        ))}
      </div>
    </PageFrame>
  );
}
