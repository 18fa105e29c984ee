import { offlineQueue, PENDING_LABEL, selectQueue, useOffline, type QueuedCommand } from '@/lib/offline';
import { sanitizeServerMessage } from '@/lib/sanitize';
import styles from './Offline.module.css';

export const NOT_SENT_LABEL = 'Not sent';
export const DISMISS_LABEL = 'Dismiss';

export interface PendingActionsProps {
  /** Which queued actions to show. */
  filter: (command: QueuedCommand) => boolean;
}

/** Actions taken offline and not yet on the server, and those the server refused (with its message). */
export function PendingActions({ filter }: PendingActionsProps) {
  const queue = useOffline(selectQueue);
  const shown = queue.filter(filter);
  if (shown.length === 0) return null;
  return (
    <ul className={styles.pending} aria-label="Waiting to be sent" data-testid="pending-actions">
      {shown.map((command) => (
        <li key={command.id} className={styles.pendingRow} data-state={command.state} data-testid="pending-action">
          <svg
            className={styles.clock}
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            aria-hidden="true"
          >
            <circle cx="12" cy="12" r="9" />
            <path d="M12 7v5l3 2" strokeLinecap="round" />
          </svg>
          <span className={styles.pendingText}>
            <span className={styles.pendingLabel}>{command.label}</span>
            <span className={styles.pendingState}>
              {command.state === 'conflict'
                ? `${NOT_SENT_LABEL}: ${sanitizeServerMessage(command.message ?? '')}`
                : PENDING_LABEL}
            </span>
          </span>
          {command.state === 'conflict' && (
            <button type="button" className={styles.dismiss} onClick={() => void offlineQueue().dismiss(command.id)}>
              {DISMISS_LABEL}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
