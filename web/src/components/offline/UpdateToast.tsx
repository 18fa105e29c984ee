import { useAppUpdate } from '@/lib/offline/register-sw';
import styles from './Offline.module.css';

export const UPDATE_TEXT = 'A new version is available';
export const UPDATE_BUTTON = 'Reload';

/** Offers the new version of the app; it is only taken when the user says so. */
export function UpdateToast() {
  const ready = useAppUpdate((s) => s.ready);
  const apply = useAppUpdate((s) => s.apply);
  if (!ready) return null;
  return (
    <div className={styles.update} role="status" data-testid="update-toast">
      <span>{UPDATE_TEXT}</span>
      <button type="button" className={styles.updateButton} onClick={apply}>
        {UPDATE_BUTTON}
      </button>
    </div>
  );
}
