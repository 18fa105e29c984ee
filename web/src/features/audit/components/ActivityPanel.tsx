import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { DownloadIcon, HistoryIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { hasStatus, safeServerMessage } from '@/lib/api/errors';
import { saveBlob } from '@/lib/files';
import { toast } from '@/lib/stores/toast';
import { fetchActivityCsv, useActivity } from '../api/get-activity';
import { ACTIONS, actionLabel, activityQuery, EMPTY_ACTIVITY_FILTERS, formatWhen, type Query } from '../logic/filters';
import type { ActivityFilters } from '../types';
import styles from './Audit.module.css';

/** What happened to documents and folders across the company, newest first, in pages. */
export function ActivityPanel() {
  const [filters, setFilters] = useState<ActivityFilters>(EMPTY_ACTIVITY_FILTERS);
  const [query, setQuery] = useState<Query>(() => activityQuery(EMPTY_ACTIVITY_FILTERS));
  const [exporting, setExporting] = useState(false);
  const activity = useActivity(query);

  useEffect(() => {
    if (activity.error) toast.danger(safeServerMessage(activity.error) || 'The activity could not be read');
  }, [activity.error]);

  const set = (key: keyof ActivityFilters) => (event: { target: { value: string } }) =>
    setFilters((f) => ({ ...f, [key]: event.target.value }));

  const exportCsv = async () => {
    setExporting(true);
    try {
      const file = await fetchActivityCsv(query);
      saveBlob(file.blob, file.fileName ?? 'activity.csv');
    } catch (error) {
      if (!hasStatus(error, 401)) toast.danger(safeServerMessage(error) || 'The export failed');
    } finally {
      setExporting(false);
    }
  };

  const entries = activity.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <section aria-label="Activity">
      <form
        className={styles.filters}
        onSubmit={(event) => {
          event.preventDefault();
          setQuery(activityQuery(filters));
        }}
      >
        <label className={`field ${styles.full}`}>
          <span className="field-label">User e-mail</span>
          <input className="input" type="email" value={filters.user} onChange={set('user')} placeholder="Everyone" />
        </label>
        <label className={`field ${styles.full}`}>
          <span className="field-label">Action</span>
          <select className="input" value={filters.action} onChange={set('action')}>
            <option value="">Any</option>
            {ACTIONS.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </select>
        </label>
        <label className={`field ${styles.full}`}>
          <span className="field-label">From</span>
          <input className="input" type="datetime-local" value={filters.from} onChange={set('from')} />
        </label>
        <label className={`field ${styles.full}`}>
          <span className="field-label">To</span>
          <input className="input" type="datetime-local" value={filters.to} onChange={set('to')} />
        </label>
        <div className={styles.formActions}>
          <button type="submit" className="btn btn-primary">
            Apply
          </button>
          <button type="button" className="btn btn-outline" onClick={() => void exportCsv()} disabled={exporting}>
            <DownloadIcon size={20} /> Download CSV
          </button>
        </div>
      </form>

      {activity.isPending ? (
        <Loader />
      ) : entries.length === 0 ? (
        <EmptyState icon={<HistoryIcon size={32} />} title="Nothing happened in this period" />
      ) : (
        <>
          <ul className={styles.table} aria-label="Activity entries">
            <li className={`${styles.row} ${styles.activityRow} ${styles.head}`} aria-hidden="true">
              <span>When</span>
              <span>Who</span>
              <span>Action</span>
              <span>Item</span>
              <span>Detail</span>
            </li>
            {entries.map((entry, index) => (
              <li
                key={`${entry.at}-${entry.item.id}-${index}`}
                className={`${styles.row} ${styles.activityRow}`}
                data-testid="activity-entry"
                data-action={entry.action}
              >
                <span className={styles.cell} data-label="When">
                  {formatWhen(entry.at)}
                </span>
                <span className={styles.cell} data-label="Who">
                  {entry.actor.name}
                  {entry.actor.email && <span className={styles.sub}>{entry.actor.email}</span>}
                </span>
                <span className={styles.cell} data-label="Action">
                  {actionLabel(entry.action)}
                </span>
                <span className={styles.cell} data-label="Item">
                  <Link to={`/documents/history/${entry.item.id}`} className={styles.itemLink}>
                    {entry.item.name || entry.item.id}
                  </Link>
                  <span className={styles.sub}>{entry.item.type === 'folder' ? 'Folder' : 'File'}</span>
                </span>
                <span className={`${styles.cell} ${styles.detail}`} data-label="Detail">
                  {entry.detail}
                </span>
              </li>
            ))}
          </ul>
          {activity.hasNextPage && (
            <button
              type="button"
              className={`btn btn-outline ${styles.more}`}
              onClick={() => void activity.fetchNextPage()}
              disabled={activity.isFetchingNextPage}
            >
              Load more
            </button>
          )}
        </>
      )}
    </section>
  );
}
