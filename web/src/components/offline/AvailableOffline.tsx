import { useState } from 'react';
import { Toggle } from '@/components/Toggle';
import { hasStatus } from '@/lib/api/errors';
import { offlinePins, selectOnline, selectPins, useOffline, type PinnableFile } from '@/lib/offline';
import { toast } from '@/lib/stores/toast';
import styles from './Offline.module.css';

export const AVAILABLE_OFFLINE = 'Available offline';
export const SAVED_OFFLINE = 'Saved on this device';
export const SAVE_FAILED = 'Could not save it on this device';
export const NEEDS_NETWORK = 'Connect to the network to save it';

export type PinTarget =
  ({ kind: 'file' } & PinnableFile) | { kind: 'folder'; id: string; title: string; type: 'my' | 'shared' | 'us' };

/** The "Available offline" switch of a document or folder: keeps it (and a folder's files) on the device. */
export function AvailableOffline({ target }: { target: PinTarget }) {
  const pinned = useOffline((s) => selectPins(s).some((item) => item.id === target.id));
  const online = useOffline(selectOnline);
  const [busy, setBusy] = useState(false);

  const change = async (keep: boolean) => {
    setBusy(true);
    try {
      if (!keep) {
        await offlinePins().unpin(target.id);
        return;
      }
      if (target.kind === 'file') await offlinePins().pinFile(target);
      else await offlinePins().pinFolder({ id: target.id, title: target.title, type: target.type });
      toast.dark(SAVED_OFFLINE);
    } catch (error) {
      if (!hasStatus(error, 401)) toast.danger(SAVE_FAILED);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={styles.pin} data-testid="available-offline">
      <Toggle
        label={AVAILABLE_OFFLINE}
        checked={pinned}
        disabled={busy || (!pinned && !online)}
        onChange={(keep) => void change(keep)}
      />
      {!pinned && !online && <span className={styles.pinHint}>{NEEDS_NETWORK}</span>}
    </div>
  );
}
