import { useEffect, useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { RichText } from '@/components/RichText';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { useProductInDepth } from '../api/get-product-indepth';
import { inDepthPath, orderInDepthSections } from '../navigation';
import styles from './Products.module.css';
import { useRouteId } from './useItemId';

/** /products/detail/{id}/indepth/{tab?}/{anchor?}: section tabs in the fixed order, smooth scroll to anchors. */
export default function InDepthPage() {
  const id = useRouteId('id');
  const { tab, anchor } = useParams();
  const query = useProductInDepth(id ?? undefined);
  useFailureToast(query.error, { redirectTo: id ? `/products/detail/${id}` : '/products', missingId: id === null });
  const sections = useMemo(() => orderInDepthSections(query.data?.sections ?? []), [query.data]);
  const current = sections.find((s) => s.path === tab) ?? sections[0];

  useEffect(() => {
    if (!current) return;
    const target = anchor ? document.getElementById(`feature-${anchor}`) : null;
    if (target) target.scrollIntoView({ behavior: 'smooth', block: 'start' });
    else window.scrollTo({ top: 0, behavior: 'smooth' });
  }, [current, anchor]);

  return (
    <PageFrame title={query.data?.title ?? 'In depth'} back={id ? `/products/detail/${id}` : '/products'}>
      <div className={styles.page}>
        {query.isPending && id && <Loader />}
        {id && sections.length > 0 && (
          <nav className={styles.tabs} aria-label="In-depth sections">
            {sections.map((s) => (
              <Link
                key={s.path}
                to={inDepthPath(id, { path: s.path })}
                replace
                className={`${styles.tab} ${s === current ? styles.tabActive : ''}`}
                aria-current={s === current ? 'page' : undefined}
              >
                {s.label}
              </Link>
            ))}
          </nav>
        )}
        {current && (
          <section className={styles.section} data-testid="indepth-section" data-path={current.path}>
            <img className={styles.sectionImage} src={current.content.image} alt="" />
            <h2 className={styles.blockTitle}>{current.content.title}</h2>
            <RichText html={current.content.mainText} />
            <RichText html={current.content.subText} className={styles.disclaimer} />
            {current.features.map((f) => (
              <article
                key={f.anchor}
                id={`feature-${f.anchor}`}
                className={`${styles.feature} ${f.anchor === anchor ? styles.featureTarget : ''}`}
              >
                <img src={f.image} alt="" loading="lazy" />
                <h3 className={styles.rowName}>{f.title}</h3>
                <RichText html={f.description} />
              </article>
            ))}
          </section>
        )}
      </div>
    </PageFrame>
  );
}
