import { create } from 'zustand';
import { isApiError } from '../api/errors';
import { libraryWithdrawal, type LibraryWithdrawal } from '../realtime/dispatch';
import type { KeyValueStore } from '../storage';
import type { DeviceReport, PurgeReport } from './withdrawn';

/**
 * - `pending`: signed in, nothing checked yet: no screen shows content.
 * - `checking`: the first check runs: no screen shows content.
 * - `done`: checked (or the network is gone: what is on the device and not withdrawn shows).
 */
export type WithdrawnGateStatus = 'pending' | 'checking' | 'done';

interface GateState {
  status: WithdrawnGateStatus;
  /** A later check (reconnection) runs: the screen is hidden until the purge is done. */
  rechecking: boolean;
}

export const useWithdrawnGate = create<GateState>()(() => ({ status: 'pending', rechecking: false }));

/** The answer of `GET /library/withdrawn?since=`. */
interface WithdrawnAnswer {
  now?: unknown;
  documents?: unknown;
}

export const LAST_CHECK_KEY = 'companion.withdrawn-checked';
/** A check this soon after the last one adds nothing (the first connection follows start-up). */
export const RECHECK_AFTER_MS = 3_000;

export interface WithdrawnSyncOptions {
  /** `GET /library/withdrawn?since=`; rejects with an ApiError. */
  fetchWithdrawn: (since: number) => Promise<WithdrawnAnswer>;
  /** Takes the documents' copies off the device. */
  purge: (withdrawals: LibraryWithdrawal[]) => Promise<PurgeReport>;
  /** Sends (or queues for later) a report of the device: `POST /library/purges`. */
  reportPurged: (report: Omit<DeviceReport, 'device'>) => Promise<void>;
  /** Drops the documents from what the screens hold and refreshes them; resolves when refreshed. */
  showWithout: (withdrawals: LibraryWithdrawal[]) => Promise<void>;
  store: KeyValueStore;
  now?: () => number;
}

/**
 * What the device does about withdrawn documents: a live withdrawal is purged at once and
 * confirmed to the server; at start-up and each reconnection the device asks what was withdrawn
 * while it was away and purges that before anything is shown.
 */
export function createWithdrawnSync({
  fetchWithdrawn,
  purge,
  reportPurged,
  showWithout,
  store,
  now = Date.now,
}: WithdrawnSyncOptions) {
  let running: Promise<void> | null = null;
  let finishedAt = 0;

  const lastCheck = (): number => {
    const value = Number(store.get(LAST_CHECK_KEY) ?? '0');
    return Number.isFinite(value) && value > 0 ? value : 0;
  };

  async function runCheck(): Promise<void> {
    let answer: WithdrawnAnswer;
    try {
      answer = await fetchWithdrawn(lastCheck());
    } catch (error) {
      // Offline (or a server that cannot say): what the device holds and is not known withdrawn shows.
      if (!isApiError(error) || error.status !== 0) console.warn('Withdrawn documents check failed', error);
      return;
    }
    const withdrawals = (Array.isArray(answer.documents) ? answer.documents : [])
      .map(libraryWithdrawal)
      .filter((w): w is LibraryWithdrawal => w !== null);
    if (withdrawals.length > 0) {
      const report = await purge(withdrawals);
      if (report.library.length > 0 || report.items.length > 0) {
        await reportPurged({ library: report.library, items: report.items }).catch(() => undefined);
      }
      await showWithout(withdrawals);
    }
    const serverNow = typeof answer.now === 'number' ? answer.now : now();
    store.set(LAST_CHECK_KEY, String(serverNow));
  }

  return {
    /**
     * Checks what was withdrawn since the last check. The first check (start-up) gates every
     * screen; a later one hides the screen while it runs. Concurrent calls share one check.
     */
    check(): Promise<void> {
      if (running) return running;
      const gate = useWithdrawnGate.getState();
      if (gate.status === 'done' && now() - finishedAt < RECHECK_AFTER_MS) return Promise.resolve();
      if (gate.status === 'done') useWithdrawnGate.setState({ rechecking: true });
      else useWithdrawnGate.setState({ status: 'checking' });
      running = runCheck()
        .catch((error: unknown) => console.warn('Withdrawn documents purge failed', error))
        .finally(() => {
          running = null;
          finishedAt = now();
          useWithdrawnGate.setState({ status: 'done', rechecking: false });
        });
      return running;
    },

    /** A live `library_withdrawn`: off the screens at once, off the device, then confirmed. */
    async heard(withdrawal: LibraryWithdrawal): Promise<void> {
      void showWithout([withdrawal]);
      try {
        await purge([withdrawal]);
      } catch (error) {
        console.warn('Withdrawn document purge failed', error);
        return;
      }
      // The device heard it and holds nothing of it any more: confirmed for the document and its items.
      await reportPurged({ library: [withdrawal.id], items: withdrawal.items }).catch(() => undefined);
    },

    /** Sign-out: the next user's first screen waits for its own check. */
    reset(): void {
      running = null;
      finishedAt = 0;
      useWithdrawnGate.setState({ status: 'pending', rechecking: false });
    },
  };
}

export type WithdrawnSync = ReturnType<typeof createWithdrawnSync>;
