import { useState } from 'react';
import { Loader } from '@/components/Loader';
import { safeServerMessage } from '@/lib/api/errors';
import { useAccess } from '../api/get-access';
import { formatWhen, localToIso, toLocalInput } from '../logic/filters';
import type { AuditItem } from '../types';
import styles from './Audit.module.css';

/** The latest moment the item existed: now, or the millisecond before its deletion. */
function lastSeen(item: AuditItem): number {
  return item.deleted_at != null ? item.deleted_at - 1 : Date.now();
}

/** Who could see an item at a chosen time: its owner, the US set, and the shares valid then. */
export function AccessPanel({ item }: { item: AuditItem }) {
  // Until the auditor picks another time, the exact last moment (the picker shows minutes only).
  const [initial] = useState(() => lastSeen(item));
  const [input, setInput] = useState(() => toLocalInput(initial));
  const [edited, setEdited] = useState(false);
  const [at, setAt] = useState<string | null>(null);
  const access = useAccess(item.id, at);

  return (
    <section className={styles.access} aria-label={`Who could see ${item.name}`}>
      <form
        className={styles.accessForm}
        onSubmit={(event) => {
          event.preventDefault();
          setAt(edited ? (localToIso(input) ?? null) : new Date(initial).toISOString());
        }}
      >
        <label className="field">
          <span className="field-label">
            Who could see it at{!edited && item.deleted_at != null ? ' (just before its deletion)' : ''}
          </span>
          <input
            className="input"
            type="datetime-local"
            value={input}
            onChange={(event) => {
              setInput(event.target.value);
              setEdited(true);
            }}
          />
        </label>
        <button type="submit" className="btn btn-primary">
          Show
        </button>
      </form>
      {at && access.isPending && <Loader />}
      {at && access.error && (
        <p className={styles.error} role="alert">
          {safeServerMessage(access.error) || 'This could not be read'}
        </p>
      )}
      {at && access.data && (
        <div role="status">
          <p className={styles.accessTitle}>
            “{access.data.title}” on {formatWhen(access.data.at)}
          </p>
          <ul className={styles.accessList}>
            {access.data.owner && <li>{access.data.owner.name ?? access.data.owner.id} (owner)</li>}
            {access.data.us_set && <li>Every user with a US certificate (US set)</li>}
            {access.data.shared_with.map((share) => (
              <li key={share.user.id}>
                {share.user.name ?? 'Former user'}
                {share.user.email ? ` (${share.user.email})` : ''} — shared{' '}
                {share.direct ? 'directly' : 'through a folder'} since {formatWhen(share.since)}
              </li>
            ))}
            {!access.data.us_set && access.data.shared_with.length === 0 && <li>Nobody else: it was not shared</li>}
          </ul>
        </div>
      )}
    </section>
  );
}
