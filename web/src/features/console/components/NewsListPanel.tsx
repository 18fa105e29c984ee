import { useDeferredValue, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { NewsIcon, PlusIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { listQuery } from '../api/keys';
import { useNewsList } from '../api/news';
import { refusalMessage } from '../logic/errors';
import { formatDate, matchesText, parseStatusFilter, type ConsoleRights } from '../logic/status';
import type { StatusFilter } from '../types';
import styles from './Console.module.css';
import { Refusal, StatusBadge, StatusChips } from './shared';

/** Every news item of the console, filtered by status and text. */
export function NewsListPanel({ rights }: { rights: ConsoleRights }) {
  const [params, setParams] = useSearchParams();
  const status = parseStatusFilter(params.get('status'));
  const [text, setText] = useState('');
  const q = useDeferredValue(text);
  const list = useNewsList(listQuery(status, q));

  const setStatus = (value: StatusFilter) =>
    setParams(
      (p) => {
        if (value) p.set('status', value);
        else p.delete('status');
        return p;
      },
      { replace: true },
    );

  const items = (list.data ?? []).filter((item) => matchesText(item.title, q));

  return (
    <section aria-label="News" className={styles.workspace}>
      <div className={styles.toolbar}>
        <StatusChips value={status} onChange={setStatus} />
        {rights.publish && (
          <Link className="btn btn-primary" to="/console/news/new">
            <PlusIcon size={20} /> New news
          </Link>
        )}
      </div>
      <label className={`field ${styles.search}`}>
        <span className="visually-hidden">Filter by title</span>
        <input
          className="input"
          type="search"
          value={text}
          placeholder="Filter by title"
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      {list.isPending ? (
        <Loader />
      ) : list.error ? (
        <Refusal message={refusalMessage(list.error, 'The news could not be loaded')} />
      ) : items.length === 0 ? (
        <EmptyState icon={<NewsIcon size={32} />} title="No news match these filters" />
      ) : (
        <table className={styles.table} aria-label="News">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Category</th>
              <th scope="col">Status</th>
              <th scope="col">Version</th>
              <th scope="col">Release</th>
              <th scope="col">Expiry</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id} data-testid="console-news-row" data-status={item.status}>
                <td>
                  <Link className={styles.titleLink} to={`/console/news/${item.id}`}>
                    {item.title}
                  </Link>
                  {item.author && <div className={styles.muted}>by {item.author.name}</div>}
                </td>
                <td>{item.category}</td>
                <td>
                  <StatusBadge status={item.status} />
                </td>
                <td>v{item.version}</td>
                <td>{formatDate(item.release_at)}</td>
                <td>{formatDate(item.expires_at)}</td>
                <td>{formatDate(item.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
