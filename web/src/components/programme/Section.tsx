import type { ReactNode } from 'react';
import { formatLongDate } from '@/lib/dates';
import styles from './programme.module.css';

/** A titled card of a detail tab. */
export function Section({ title, children, icon }: { title?: ReactNode; children: ReactNode; icon?: ReactNode }) {
  return (
    <section className={styles.section}>
      {title && (
        <h3 className={styles.sectionTitle}>
          {icon}
          {title}
        </h3>
      )}
      {children}
    </section>
  );
}

/** A From/To block with dates and optional times. */
export function DateRange({
  from,
  fromTime,
  to,
  toTime,
  fromLabel = 'From',
  toLabel = 'To',
}: {
  from: string;
  fromTime?: string | null;
  to: string;
  toTime?: string | null;
  fromLabel?: string;
  toLabel?: string;
}) {
  return (
    <dl className={styles.range}>
      <div>
        <dt>{fromLabel}</dt>
        <dd>
          <strong>{formatLongDate(from)}</strong>
          {fromTime && <span>{fromTime}</span>}
        </dd>
      </div>
      <div>
        <dt>{toLabel}</dt>
        <dd>
          <strong>{formatLongDate(to)}</strong>
          {toTime && <span>{toTime}</span>}
        </dd>
      </div>
    </dl>
  );
}
