import { Badge } from '@/components/Badge';
import { statusLabel, statusTone, STATUS_FILTERS } from '../logic/status';
import type { StatusFilter } from '../types';
import styles from './Console.module.css';

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={statusTone(status)}>{statusLabel(status)}</Badge>;
}

export function StatusChips({ value, onChange }: { value: StatusFilter; onChange: (value: StatusFilter) => void }) {
  return (
    <div className={styles.chips} role="group" aria-label="Status">
      {STATUS_FILTERS.map((filter) => (
        <button
          key={filter.value || 'all'}
          type="button"
          className={value === filter.value ? styles.chipActive : styles.chip}
          aria-pressed={value === filter.value}
          onClick={() => onChange(filter.value)}
        >
          {filter.label}
        </button>
      ))}
    </div>
  );
}

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <span id={id} className={styles.fieldError}>
      {message}
    </span>
  );
}

/** The server's refusal, shown where the action was asked for. */
export function Refusal({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className={styles.refusal} role="alert">
      {message}
    </p>
  );
}
