import { useState } from 'react';
import { LibraryDocumentList } from '@/components/documents/LibraryDocumentList';
import { ChevronRightIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { useSegment } from '../api/get-segment';
import { ItemList } from './ItemList';
import styles from './Products.module.css';
import { useRouteId } from './useItemId';

/** /products/{segment}: the segment's list (Shoulder in two groups) and '#ThinkClinical'. */
export default function SegmentPage() {
  const id = useRouteId('segment');
  const query = useSegment(id ?? undefined);
  useFailureToast(query.error, { redirectTo: '/products', missingId: id === null });
  const [open, setOpen] = useState(false);
  const data = query.data;

  return (
    <PageFrame title={data?.name ?? 'Products'} back="/products" support>
      <div className={styles.page}>
        {query.isPending && id && <Loader />}
        {data && (
          <>
            {data.red_label && <p className={styles.warning}>{data.red_label}</p>}
            {data.groups.map((group, i) => (
              <section key={i} className={styles.block} data-testid="segment-group">
                {data.grouped && i > 0 && <hr className={styles.separator} />}
                <ItemList items={group.list} />
              </section>
            ))}
            {data.thinkclinical.length > 0 && (
              <section className={styles.accordion}>
                <button
                  type="button"
                  className={styles.accordionHead}
                  aria-expanded={open}
                  onClick={() => setOpen((v) => !v)}
                >
                  #ThinkClinical
                  <ChevronRightIcon size={18} className={`${styles.chevron} ${open ? styles.open : ''}`} />
                </button>
                {open && (
                  <div className={styles.accordionBody}>
                    <LibraryDocumentList documents={data.thinkclinical} />
                  </div>
                )}
              </section>
            )}
          </>
        )}
      </div>
    </PageFrame>
  );
}
