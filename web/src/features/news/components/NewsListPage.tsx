import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { NewsIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useDraft } from '@/lib/hooks/useDraft';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { formatShortDate } from '@/lib/dates';
import { useNews } from '../api/get-news';
import styles from './News.module.css';

/** /news: list with year (default the current one, kept in ?year) and category filters. */
export default function NewsListPage() {
  const [params, setParams] = useSearchParams();
  const currentYear = String(new Date().getFullYear());
  const year = params.get('year') || currentYear;
  const category = params.get('category') ?? '';
  const query = useNews(year, category);
  useFailureToast(query.error);

  // The default year is written into the URL, so the address always says what is shown.
  useEffect(() => {
    if (!params.get('year')) {
      const next = new URLSearchParams(params);
      next.set('year', currentYear);
      setParams(next, { replace: true });
    }
  }, [params, setParams, currentYear]);

  const [draft, setDraft] = useDraft({ year, category }, `${year}|${category}`);
  const apply = () => {
    const next = new URLSearchParams();
    next.set('year', draft.year || currentYear);
    if (draft.category) next.set('category', draft.category);
    setParams(next, { replace: true });
  };

  const data = query.data;
  const filters = (
    <div style={{ display: 'grid', gap: 12 }}>
      <label className="field">
        <span className="field-label">Year</span>
        <select
          className="input"
          value={draft.year}
          onChange={(e) => setDraft((d) => ({ ...d, year: e.target.value }))}
        >
          {(data?.filters.year ?? [{ value: currentYear, label: currentYear }]).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field-label">Category</span>
        <select
          className="input"
          value={draft.category}
          onChange={(e) => setDraft((d) => ({ ...d, category: e.target.value }))}
        >
          <option value="">All</option>
          {(data?.filters.category ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
    </div>
  );

  return (
    <PageFrame
      title="News"
      back="/home"
      filters={filters}
      filtersActive={year !== currentYear || category !== ''}
      onFiltersDone={apply}
    >
      <div className={styles.page}>
        {query.isPending && <Loader />}
        {data && data.list.length === 0 && (
          <EmptyState icon={<NewsIcon size={32} />} title="No news to show">
            Try another year or category.
          </EmptyState>
        )}
        {data && data.list.length > 0 && (
          <ul className={styles.list} data-testid="news-list">
            {data.list.map((n) => (
              <li key={n.id}>
                <Link to={`/news/${n.id}`} className={styles.row}>
                  <img src={n.preview} alt="" loading="lazy" />
                  <span className={styles.text}>
                    <span className={styles.title}>{n.title}</span>
                    <time className={styles.date} dateTime={n.date}>
                      {formatShortDate(n.date)}
                    </time>
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
