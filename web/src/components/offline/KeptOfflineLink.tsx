import { Link } from 'react-router';
import { selectPins, useOffline, usedBytes } from '@/lib/offline';
import styles from './Offline.module.css';

/** Bytes as people read them (KB below a megabyte). */
function size(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The way to what is kept on the device (/offline), shown once something is. */
export function KeptOfflineLink() {
  const pins = useOffline(selectPins);
  if (pins.length === 0) return null;
  return (
    <Link to="/offline" className={styles.keptLink} data-testid="kept-offline-link">
      Available offline · {size(usedBytes(pins))}
      <span aria-hidden="true">›</span>
    </Link>
  );
}
