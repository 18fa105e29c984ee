import styles from './Loader.module.css';

/** Spinner; `full` centres it in the page area (route loading). */
export function Loader({ full = false, label = 'Loading' }: { full?: boolean; label?: string }) {
  return (
    <div className={full ? styles.full : styles.inline} role="progressbar" aria-label={label}>
      <span className={styles.spinner} />
    </div>
  );
}
