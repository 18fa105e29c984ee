import { useState } from 'react';
import { Loader } from '@/components/Loader';
import { ImageGallery } from '@/components/media/ImageGallery';
import { PageFrame } from '@/components/page/PageFrame';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { useComponent } from '../api/get-component';
import { componentBackTarget } from '../navigation';
import styles from './Products.module.css';
import { useRouteId } from './useItemId';

/** /products/detail/component/{id}: gallery, Material, Sterile / Not sterile, Notes, variants. */
export default function ComponentPage() {
  const id = useRouteId('id');
  const query = useComponent(id ?? undefined);
  useFailureToast(query.error, { redirectTo: '/products', missingId: id === null });
  const [galleryAt, setGalleryAt] = useState<number | null>(null);
  const c = query.data;

  return (
    <PageFrame title={c?.title ?? 'Component'} back={componentBackTarget(c?.parent_id)}>
      <div className={styles.page}>
        {query.isPending && id && <Loader />}
        {c && (
          <>
            <div className={styles.gallery}>
              {c.gallery.map((g, i) => (
                <button
                  key={g.big}
                  type="button"
                  onClick={() => setGalleryAt(i)}
                  aria-label={`Image ${i + 1} of ${c.gallery.length}`}
                >
                  <img src={g.big} alt="" />
                </button>
              ))}
            </div>
            <div className={styles.facts}>
              <p className={styles.rowSub}>{c.parent_name}</p>
              <div className={styles.fact}>
                <span className={styles.factLabel}>Material</span>
                <span>{c.material}</span>
              </div>
              <span className={c.sterile ? styles.sterile : styles.notSterile} data-testid="sterility">
                {c.sterile ? 'Sterile' : 'Not sterile'}
              </span>
              {c.notes && (
                <div className={styles.fact}>
                  <span className={styles.factLabel}>Notes</span>
                  <span>{c.notes}</span>
                </div>
              )}
            </div>
            {c.variants.map((group) => (
              <section key={group.title} className={styles.block}>
                <h2 className={styles.blockTitle}>{group.title}</h2>
                <table className={styles.variants}>
                  <thead>
                    <tr>
                      <th scope="col">Size</th>
                      <th scope="col">Code</th>
                    </tr>
                  </thead>
                  <tbody>
                    {group.variants.map((v) => (
                      <tr key={v.code}>
                        <td>{v.size}</td>
                        <td>
                          {v.code}
                          {v.upon_request && <span className={styles.uponRequest}>upon request</span>}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            ))}
            <ImageGallery
              images={c.gallery.map((g) => ({ src: g.big, label: c.title }))}
              index={galleryAt}
              onClose={() => setGalleryAt(null)}
            />
          </>
        )}
      </div>
    </PageFrame>
  );
}
