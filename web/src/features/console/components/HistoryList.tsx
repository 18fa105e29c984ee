import type { UseQueryResult } from '@tanstack/react-query';
import { Loader } from '@/components/Loader';
import { refusalMessage } from '../logic/errors';
import { formatWhen } from '../logic/status';
import type { HistoryEntry } from '../types';
import styles from './Console.module.css';
import { Refusal } from './shared';

/** Every step of a document or news item, with who took it. */
export function HistoryList({ history }: { history: UseQueryResult<HistoryEntry[]> }) {
  return (
    <section className={styles.card} aria-label="History">
      <h2 className={styles.cardTitle}>History</h2>
      {history.isPending ? (
        <Loader />
      ) : history.error ? (
        <Refusal message={refusalMessage(history.error, 'The history could not be loaded')} />
      ) : history.data.length === 0 ? (
        <p className={styles.muted}>Nothing recorded yet.</p>
      ) : (
        <ol className={styles.history}>
          {history.data.map((entry, index) => (
            <li key={`${String(entry.at)}-${index}`} data-testid="console-history-entry">
              <span className={styles.muted}>{formatWhen(entry.at)}</span>
              <strong>{entry.actor?.name ?? 'The server'}</strong>
              <span>
                {entry.action.replace(/_/g, ' ')}
                {entry.detail ? `: ${entry.detail}` : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
