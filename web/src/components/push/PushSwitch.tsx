import { BellIcon } from '@/components/icons';
import { Toggle } from '@/components/Toggle';
import { markPrompted, pushSupported, turnPushOff, turnPushOn, usePush } from '@/lib/push';
import styles from './Push.module.css';

export const SWITCH_LABEL = 'Push notifications';
export const UNSUPPORTED_HINT = 'To get notifications on an iPhone or iPad, add the app to your Home Screen first.';
export const BLOCKED_HINT = "Notifications are blocked for this app in the browser's settings.";

/** The menu's switch: push notifications on or off for this device. */
export function PushSwitch() {
  const permission = usePush((s) => s.permission);
  const busy = usePush((s) => s.busy);
  const supported = pushSupported();
  const blocked = supported && Notification.permission === 'denied';

  const change = (on: boolean) => {
    markPrompted();
    void (on ? turnPushOn() : turnPushOff());
  };

  return (
    <>
      <div className={styles.switchRow}>
        <span className={styles.icon} aria-hidden="true">
          <BellIcon size={22} />
        </span>
        <Toggle
          label={SWITCH_LABEL}
          checked={supported && permission === 'yes'}
          disabled={!supported || busy || (blocked && permission !== 'yes')}
          onChange={change}
        />
      </div>
      {!supported && <p className={styles.hint}>{UNSUPPORTED_HINT}</p>}
      {blocked && <p className={styles.hint}>{BLOCKED_HINT}</p>}
    </>
  );
}
