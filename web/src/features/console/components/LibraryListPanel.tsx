import { useDeferredValue, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { DocumentsIcon, PlusIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { listQuery } from '../api/keys';
import { useLibraryList } from '../api/library';
import { refusalMessage } from '../logic/errors';
import { audienceLabel, formatDate, matchesText, parseStatusFilter } from '../logic/status';
import type { ConsoleRights } from '../logic/status';
import type { StatusFilter } from '../types';
import styles from './Console.module.css';
import { Refusal, StatusBadge, StatusChips } from './shared';
import { UploadForm } from './UploadForm';

/** Every library document of the console, filtered by status and text. */
export function LibraryListPanel({ rights }: { rights: ConsoleRights }) {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const status = parseStatusFilter(params.get('status'));
  const [text, setText] = useState(params.get('q') ?? '');
  const q = useDeferredValue(text);
  const [uploading, setUploading] = useState(false);
  const list = useLibraryList(listQuery(status, q));

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
    <section aria-label="Library documents" className={styles.workspace}>
      <div className={styles.toolbar}>
        <StatusChips value={status} onChange={setStatus} />
        {rights.publish && !uploading && (
          <button type="button" className="btn btn-primary" onClick={() => setUploading(true)}>
            <PlusIcon size={20} /> New document
          </button>
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
      {uploading && (
        <UploadForm
          onCancel={() => setUploading(false)}
          onDone={(answer) => {
            setUploading(false);
            void navigate(`/console/library/${answer.id}`);
          }}
        />
      )}
      {list.isPending ? (
        <Loader />
      ) : list.error ? (
        <Refusal message={refusalMessage(list.error, 'The documents could not be loaded')} />
      ) : items.length === 0 ? (
        <EmptyState icon={<DocumentsIcon size={32} />} title="No documents match these filters" />
      ) : (
        <table className={styles.table} aria-label="Library documents">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Status</th>
              <th scope="col">Version</th>
              <th scope="col">Audience</th>
              <th scope="col">Release</th>
              <th scope="col">Expiry</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id} data-testid="console-library-row" data-status={item.status}>
                <td>
                  <Link className={styles.titleLink} to={`/console/library/${item.id}`}>
                    {item.title}
                  </Link>
                  {item.author && <div className={styles.muted}>by {item.author.name}</div>}
                </td>
                <td>
                  <StatusBadge status={item.status} />
                </td>
                <td>
                  v{item.version}
                  {item.released_version !== null && item.released_version !== item.version && (
                    <div className={styles.muted}>v{item.released_version} released</div>
                  )}
                </td>
                <td>{audienceLabel(item.audience)}</td>
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
