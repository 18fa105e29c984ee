import { BrandMark } from './icons';
import styles from './Splash.module.css';

/** Brand screen shown over the app while it starts. */
export function Splash({ leaving }: { leaving: boolean }) {
  return (
    <div className={`${styles.splash} ${leaving ? styles.leaving : ''}`} data-testid="splash" aria-hidden={leaving}>
      <div className={styles.mark}>
        <BrandMark size={84} inverted />
      </div>
      <p className={styles.name}>Companion</p>
      <p className={styles.tagline}>Orthopaedic solutions, in your pocket</p>
    </div>
  );
}
