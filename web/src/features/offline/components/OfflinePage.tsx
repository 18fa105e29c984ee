import { useEffect, useState } from 'react';
import { PageFrame } from '@/components/page/PageFrame';
import { offlinePins, selectPins, useOffline, usedBytes, type OfflineItem } from '@/lib/offline';
import { formatBytes } from '../format';
import styles from './OfflinePage.module.css';

export const OFFLINE_TITLE = 'Available offline';
export const NOTHING_KEPT = 'Nothing is kept on this device yet. Turn on "Available offline" in a document\'s menu.';
export const REMOVE_ALL = 'Remove all';

/** What the browser says this site stores in all (answers, app files and documents). */
function useStorageEstimate(items: OfflineItem[]): number | null {
  const [used, setUsed] = useState<number | null>(null);
  useEffect(() => {
    if (typeof navigator === 'undefined' || !navigator.storage?.estimate) return;
    void navigator.storage.estimate().then((estimate) => setUsed(estimate.usage ?? null));
  }, [items]);
  return used;
}

/** /offline: the documents and folders kept on the device, the space they use, and removal. */
export default function OfflinePage() {
  const items = useOffline(selectPins);
  const total = useStorageEstimate(items);
  const folders = items.filter((item) => item.kind === 'folder');
  const files = items.filter((item) => item.kind === 'file');

  return (
    <PageFrame title={OFFLINE_TITLE} back="/documents">
      <section className={styles.usage} aria-label="Storage used" data-testid="offline-usage">
        <strong className={styles.usageFigure}>{formatBytes(usedBytes(items))}</strong>
        <span className={styles.usageText}>
          used by {files.length} {files.length === 1 ? 'document' : 'documents'}
          {total !== null && ` · ${formatBytes(total)} by the app in all`}
        </span>
      </section>
      {items.length === 0 ? (
        <p className={styles.empty}>{NOTHING_KEPT}</p>
      ) : (
        <>
          <ul className={styles.list} aria-label="Kept on this device">
            {[...folders, ...files].map((item) => (
              <li key={item.id} className={styles.row} data-testid="offline-item">
                <span className={styles.rowText}>
                  <span className={styles.rowTitle}>{item.title}</span>
                  <span className={styles.rowMeta}>
                    {item.kind === 'folder'
                      ? 'Folder · kept up to date when online'
                      : `${formatBytes(item.size)}${item.via ? ' · in a kept folder' : ''}`}
                  </span>
                </span>
                {(item.kind === 'folder' || !item.via) && (
                  <button
                    type="button"
                    className={styles.remove}
                    aria-label={`Remove ${item.title} from this device`}
                    onClick={() => void offlinePins().unpin(item.id)}
                  >
                    Remove
                  </button>
                )}
              </li>
            ))}
          </ul>
          <button
            type="button"
            className={`btn btn-outline ${styles.removeAll}`}
            onClick={() => void offlinePins().unpinAll()}
          >
            {REMOVE_ALL}
          </button>
        </>
      )}
    </PageFrame>
  );
}
