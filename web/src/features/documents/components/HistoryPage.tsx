import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { hasStatus, safeServerMessage } from '@/lib/api/errors';
import { useSession } from '@/lib/session/store';
import { toast } from '@/lib/stores/toast';
import { useFolderAsOf } from '../api/get-folder-as-of';
import { fetchHistoryCsv, saveBlob } from '../api/get-file';
import { useHistory } from '../api/get-history';
import { displayName } from '../logic/file';
import {
  formatWhen,
  historyActionLabel,
  historyChange,
  historyEntries,
  localInputToIso,
  readsSummary,
  toLocalInput,
} from '../logic/history';
import { MESSAGES } from '../logic/messages';
import type { HistoryEntry } from '../types';
import styles from './Documents.module.css';
import { DownloadIcon, FolderIcon, HistoryIcon } from '@/components/icons';
import { ItemIcon } from './ItemTile';

/** The first location of a page load has this key in react-router. */
const FIRST_LOAD_KEY = 'default';

/** /documents/history/{id}: who did what to a document or folder, and when. */
export default function HistoryPage() {
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const history = useHistory(id);
  const auditor = useSession((state) => state.user?.role === 'auditor');
  const [exporting, setExporting] = useState(false);
  const [asOf, setAsOf] = useState<string | null>(null);

  useEffect(() => {
    if (!history.error) return;
    const message = safeServerMessage(history.error) || MESSAGES.historyError;
    if (hasStatus(history.error, 403, 404)) {
      toast.dangerOn('/documents', message);
      void navigate('/documents', { replace: true });
    } else {
      toast.danger(message);
    }
  }, [history.error, navigate]);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const file = await fetchHistoryCsv(id);
      saveBlob(file.blob, `history-${id}.csv`);
    } catch (error) {
      if (!hasStatus(error, 401)) toast.danger(safeServerMessage(error) || MESSAGES.fileError);
    } finally {
      setExporting(false);
    }
  };

  const pages = history.data?.pages;
  const data = pages?.[0];
  const entries = pages ? historyEntries(pages) : [];
  const isFolder = data?.item.type === 'folder';
  // Auditors, and owners in their own tree, may look at the folder as it was.
  const timeTravel = isFolder && data?.item.as_of === true;
  const reads = data ? readsSummary(data.item.reads) : null;

  return (
    <PageFrame title="History" back={location.key === FIRST_LOAD_KEY ? '/documents' : true}>
      {history.isPending && <Loader />}
      {data && (
        <>
          <div className={styles.historyHead}>
            <h2 className={styles.historyName}>{data.item.name}</h2>
            {reads && (
              <p className={styles.hint} data-testid="history-reads">
                {reads}
              </p>
            )}
            {auditor && (
              <button type="button" className="btn btn-outline" onClick={() => void exportCsv()} disabled={exporting}>
                <DownloadIcon size={20} /> Export CSV
              </button>
            )}
          </div>
          {timeTravel && <FolderAsOf id={id} at={asOf} onAt={setAsOf} />}
          {entries.length === 0 ? (
            <EmptyState icon={<HistoryIcon size={32} />} title="Nothing recorded yet" />
          ) : (
            <ol className={styles.timeline} aria-label="History">
              {entries.map((entry, index) => (
                <HistoryRow
                  key={`${entry.at}-${index}`}
                  entry={entry}
                  onContents={timeTravel ? () => setAsOf(new Date(entry.at).toISOString()) : undefined}
                />
              ))}
            </ol>
          )}
          {history.hasNextPage && (
            <LoadMore loading={history.isFetchingNextPage} onMore={() => void history.fetchNextPage()} />
          )}
        </>
      )}
    </PageFrame>
  );
}

/** The older entries: loaded when the button scrolls into view, or when it is pressed. */
function LoadMore({ loading, onMore }: { loading: boolean; onMore: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  const more = useRef(onMore);
  useEffect(() => {
    more.current = onMore;
  });

  useEffect(() => {
    const target = button.current;
    if (!target || loading || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((seen) => {
      if (seen.some((entry) => entry.isIntersecting)) more.current();
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [loading]);

  return (
    <button
      ref={button}
      type="button"
      className={`btn btn-outline ${styles.more}`}
      onClick={onMore}
      disabled={loading}
      data-testid="history-more"
    >
      {loading ? 'Loading…' : 'Load more'}
    </button>
  );
}

function HistoryRow({ entry, onContents }: { entry: HistoryEntry; onContents?: () => void }) {
  const change = historyChange(entry);
  return (
    <li className={styles.entry} data-testid="history-entry" data-action={entry.action}>
      <span className={styles.entryAction}>{historyActionLabel(entry.action)}</span>
      <time className={styles.entryWhen} dateTime={new Date(entry.at).toISOString()}>
        {formatWhen(entry.at)}
      </time>
      <span className={styles.entryWho}>
        {entry.actor}
        {entry.actor_email && entry.actor_email !== entry.actor ? ` (${entry.actor_email})` : ''}
      </span>
      {entry.detail && <span className={styles.entryDetail}>{entry.detail}</span>}
      {change && <span className={styles.entryChange}>{change}</span>}
      {onContents && (
        <button type="button" className={styles.linkButton} onClick={onContents}>
          Contents at this time
        </button>
      )}
    </li>
  );
}

/** A folder's contents as they were at a past time. */
function FolderAsOf({ id, at, onAt }: { id: string; at: string | null; onAt: (at: string | null) => void }) {
  const [input, setInput] = useState(() => toLocalInput(Date.now()));
  const contents = useFolderAsOf(id, at);

  useEffect(() => {
    if (contents.error) toast.danger(safeServerMessage(contents.error) || MESSAGES.folderError);
  }, [contents.error]);

  return (
    <section className={styles.asOf} aria-label="Contents at a past time">
      <h3 className={styles.asOfTitle}>Contents at a past time</h3>
      <label className="field-label" htmlFor="as-of-at">
        As of
      </label>
      <form
        className={styles.asOfRow}
        onSubmit={(event) => {
          event.preventDefault();
          onAt(localInputToIso(input));
        }}
      >
        <input
          className="input"
          type="datetime-local"
          id="as-of-at"
          aria-label="Date and time"
          value={input}
          onChange={(e) => setInput(e.target.value)}
        />
        <button type="submit" className="btn btn-primary">
          Show
        </button>
      </form>
      {at && contents.isPending && <Loader />}
      {at && contents.data && (
        <>
          <div className={styles.asOfBanner} role="status" data-testid="as-of-banner">
            <span>
              <strong>As of {formatWhen(new Date(at).getTime())}</strong>: “{contents.data.name}” as it was then, not
              its current contents.
            </span>
            <button type="button" className={styles.linkButton} onClick={() => onAt(null)}>
              Back to now
            </button>
          </div>
          {contents.data.list.length === 0 ? (
            <p className={styles.hint}>The folder was empty.</p>
          ) : (
            <ul className={styles.asOfList}>
              {contents.data.list.map((item) => (
                <li key={`${item.type}-${item.id}`} className={styles.asOfItem}>
                  {item.type === 'folder' ? (
                    <FolderIcon size={18} />
                  ) : (
                    <ItemIcon item={{ ...item, unread: false }} size={16} />
                  )}
                  {displayName(item)}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
