import { selectOnline, useOffline } from '@/lib/offline';
import styles from './Offline.module.css';

export const OFFLINE_BANNER = 'You are offline. Showing saved data.';

/** A strip at the top of every screen while the device has no network. */
export function OfflineBanner() {
  const online = useOffline(selectOnline);
  if (online) return null;
  return (
    <div className={styles.banner} role="status" data-testid="offline-banner">
      <span className={styles.dot} aria-hidden="true" />
      {OFFLINE_BANNER}
    </div>
  );
}
