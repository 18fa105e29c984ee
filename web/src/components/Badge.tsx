import type { ReactNode } from 'react';
import styles from './Badge.module.css';

export type BadgeTone = 'blue' | 'orange' | 'green' | 'cyan' | 'grey' | 'red' | 'purple';

/** A small coloured label (category, type). */
export function Badge({ tone = 'blue', children }: { tone?: BadgeTone; children: ReactNode }) {
  return (
    <span className={`${styles.badge} ${styles[tone]}`} data-tone-badge={tone}>
      {children}
    </span>
  );
}
