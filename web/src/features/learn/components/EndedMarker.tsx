import styles from './learn.module.css';

/** The 'Ended' marker of a course or a day that has taken place. */
export function EndedMarker() {
  return (
    <span className={styles.ended} data-testid="ended">
      Ended
    </span>
  );
}
