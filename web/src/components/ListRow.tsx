import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronRightIcon } from './icons';
import styles from './ListRow.module.css';

/** A list row with a preview image, a title, lines under it and an optional badge. */
export function ListRow({
  to,
  preview,
  title,
  subtitle,
  meta,
  badge,
}: {
  to: string;
  preview?: string | null;
  title: string;
  subtitle?: ReactNode;
  meta?: ReactNode;
  badge?: ReactNode;
}) {
  return (
    <li>
      <Link className={styles.row} to={to}>
        {preview ? (
          <img className={styles.preview} src={preview} alt="" loading="lazy" />
        ) : (
          <span className={styles.preview} />
        )}
        <span className={styles.text}>
          {badge && <span className={styles.badge}>{badge}</span>}
          <strong className={styles.title}>{title}</strong>
          {subtitle && <span className={styles.subtitle}>{subtitle}</span>}
          {meta && <span className={styles.meta}>{meta}</span>}
        </span>
        <ChevronRightIcon size={18} className={styles.chevron} />
      </Link>
    </li>
  );
}
