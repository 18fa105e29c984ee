import { useSearchParams } from 'react-router';
import { Loader } from '@/components/Loader';
import { EmptyState } from '@/components/EmptyState';
import { PageFrame } from '@/components/page/PageFrame';
import { useDraft } from '@/lib/hooks/useDraft';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { useCategory } from '../api/get-category';
import { categoryBackTarget } from '../navigation';
import { ItemList } from './ItemList';
import styles from './Products.module.css';
import { useRouteId } from './useItemId';

/** /products/category/{category}: products with the 'order' and 'subcategory' filters. */
export default function CategoryPage() {
  const id = useRouteId('category');
  const [params, setParams] = useSearchParams();
  const order = params.get('order') ?? '';
  const subcategory = params.get('subcategory') ?? '';
  const query = useCategory(id ?? undefined, order, subcategory);
  useFailureToast(query.error, { redirectTo: '/products', missingId: id === null });
  const data = query.data;

  // Choices in the modal apply with Done.
  const [draft, setDraft] = useDraft({ order, subcategory }, `${order}|${subcategory}`);

  const apply = () => {
    const next = new URLSearchParams();
    if (draft.order) next.set('order', draft.order);
    if (draft.subcategory) next.set('subcategory', draft.subcategory);
    setParams(next, { replace: true });
  };

  const filters = data && (
    <div className={styles.block}>
      <label className="field">
        <span className="field-label">Order</span>
        <select
          className={`input ${styles.select}`}
          value={draft.order || data.order}
          onChange={(e) => setDraft((d) => ({ ...d, order: e.target.value }))}
        >
          {data.filters.order.map((o) => (
            <option key={String(o.value)} value={String(o.value)}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      {data.filters.subcategory.length > 0 && (
        <label className="field">
          <span className="field-label">Subcategory</span>
          <select
            className={`input ${styles.select}`}
            value={draft.subcategory}
            onChange={(e) => setDraft((d) => ({ ...d, subcategory: e.target.value }))}
          >
            <option value="">All</option>
            {data.filters.subcategory.map((o) => (
              <option key={String(o.value)} value={String(o.value)}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );

  return (
    <PageFrame
      title={data?.category_name ?? 'Products'}
      back={data ? categoryBackTarget(data) : '/products'}
      filters={filters ?? <Loader />}
      filtersActive={Boolean(order || subcategory)}
      onFiltersDone={apply}
    >
      <div className={styles.page}>
        {query.isPending && id && <Loader />}
        {data && (
          <>
            {data.red_label && (
              <p className={styles.warning} role="note">
                {data.red_label}
              </p>
            )}
            {data.list.length > 0 ? (
              <ItemList items={data.list} />
            ) : (
              <EmptyState title="No products to show">Try other filters.</EmptyState>
            )}
          </>
        )}
      </div>
    </PageFrame>
  );
}
