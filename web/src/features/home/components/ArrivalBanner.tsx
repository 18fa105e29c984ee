import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { BellIcon } from '@/components/icons';
import { useArrivals, type Arrival } from '@/lib/stores/arrivals';
import styles from './HomeHero.module.css';

/** How long the banner stays (it also goes when opened or closed). */
export const ARRIVAL_BANNER_MS = 8000;

/**
 * A short banner for a notification that arrives while the rep is on Home (the bell's dot
 * follows the live count). Arrivals from before Home was opened are not announced.
 */
export function ArrivalBanner() {
  // The arrival already known when Home opened is not news here.
  const [before] = useState(() => useArrivals.getState().latest);
  const latest = useArrivals((s) => s.latest);
  const [dismissed, setDismissed] = useState<Arrival | null>(null);
  const shown = latest && latest !== before && latest !== dismissed ? latest : null;

  useEffect(() => {
    if (!shown) return;
    const timer = window.setTimeout(() => setDismissed(shown), ARRIVAL_BANNER_MS);
    return () => window.clearTimeout(timer);
  }, [shown]);

  if (!shown) return null;
  return (
    <div className={styles.arrival} role="status" data-testid="arrival-banner">
      <Link
        to={`/new?section=notifications&notification=${shown.id}`}
        className={styles.arrivalLink}
        onClick={() => setDismissed(shown)}
      >
        <BellIcon size={18} />
        <span className={styles.arrivalText}>
          <strong>New notification</strong>
          <span className={styles.arrivalTitle}>{shown.title}</span>
        </span>
      </Link>
      <button
        type="button"
        className={styles.arrivalClose}
        aria-label="Close the announcement"
        onClick={() => setDismissed(shown)}
      >
        ×
      </button>
    </div>
  );
}
