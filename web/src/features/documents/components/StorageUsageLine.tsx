import { useStorageUsage } from '../api/get-usage';
import { NEARLY_FULL_PERCENT, usageLabel, usagePercent } from '../logic/usage';
import styles from './Documents.module.css';

/** "1.2 GB of 2 GB used" with a thin bar, above My Docs; nothing while it loads or fails. */
export function StorageUsageLine() {
  const usage = useStorageUsage();
  if (!usage.data) return null;
  const { used_bytes: used, quota_bytes: quota } = usage.data;
  const percent = usagePercent(used, quota);
  return (
    <div className={styles.usage} data-testid="storage-usage">
      <span className={styles.usageText}>{usageLabel(used, quota)}</span>
      <div
        className={`${styles.usageBar} ${percent >= NEARLY_FULL_PERCENT ? styles.usageBarFull : ''}`}
        aria-hidden="true"
      >
        <span style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
