import { create } from 'zustand';
import { refreshBadges } from '../api/badges';
import { api, newIdempotencyKey } from '../api/client';
import { isApiError } from '../api/errors';
import { queryClient } from '../query-client';
import { useRealtime } from '../realtime/store';
import { sanitizeServerMessage } from '../sanitize';
import { LIVE_QUERY_KEYS, type LibraryWithdrawal } from '../realtime/dispatch';
import { deviceId } from '../session/device';
import { storage, tokenStore } from '../storage';
import { toast } from '../stores/toast';
import { clearOfflineData } from './clear';
import { apiPinServer, browserPinStorage, createPins, type OfflineFile, type OfflineItem, type Pins } from './pins';
import {
  BACKGROUND_KINDS,
  createQueue,
  type NewCommand,
  type OfflineQueue,
  type QueuedCommand,
  type QueuedKind,
} from './queue';
import { indexedDbQueueStore } from './store';
import { pinSubjects, purgedFiles, purgeWithdrawn, withoutWithdrawn, type DeviceReport } from './withdrawn';
import { createWithdrawnSync, useWithdrawnGate, type WithdrawnSync } from './withdrawn-sync';

export type { OfflineFile, OfflineFolder, OfflineItem, PinnableFile } from './pins';
export { usedBytes } from './pins';
export type { QueuedCommand, QueuedKind } from './queue';
export { useWithdrawnGate } from './withdrawn-sync';

interface OfflineState {
  /** What the browser says about the network. */
  online: boolean;
  /** Actions waiting for the network, and those the server refused (`state: 'conflict'`). */
  queue: QueuedCommand[];
  /** Documents and folders kept on the device. */
  pins: OfflineItem[];
  /** Ids being brought onto the device right now. */
  saving: string[];
}

const initial = (): OfflineState => ({
  online: typeof navigator === 'undefined' ? true : navigator.onLine !== false,
  queue: [],
  pins: [],
  saving: [],
});

/** The device side of offline use, for the screens. */
export const useOffline = create<OfflineState>()(() => initial());

export const selectOnline = (s: OfflineState) => s.online;
export const selectQueue = (s: OfflineState) => s.queue;
export const selectPins = (s: OfflineState) => s.pins;

/** Query-key prefixes refreshed when queued actions reach the server (the features' own keys). */
const REFRESHED_BY_KIND: Record<QueuedCommand['kind'], readonly (readonly string[])[]> = {
  create_folder: [['documents'], ['home', 'documents'], ['search']],
  rename: [['documents'], ['home', 'documents'], ['search']],
  move: [['documents'], ['home', 'documents'], ['search']],
  share: [],
  save_to_mydocs: [['documents'], ['home', 'documents'], ['search']],
  notification_read: [['whats-new']],
  library_purge: [],
  library_pin: [],
};

/** What the screens list of the queue: the user's own actions, not the device's reports. */
const usersOwn = (commands: QueuedCommand[]) => commands.filter((c) => !BACKGROUND_KINDS.has(c.kind));

let queue: OfflineQueue | null = null;
let pins: Pins | null = null;

export function offlineQueue(): OfflineQueue {
  queue ??= createQueue({
    store: indexedDbQueueStore(),
    send: (command) =>
      api.request(command.path, { method: command.method, body: command.body, idempotencyKey: command.id }),
    onChange: (commands) => useOffline.setState({ queue: usersOwn(commands) }),
  });
  return queue;
}

/** Addresses of withdrawn documents purged from this device. */
const purged = purgedFiles(storage);

export function offlinePins(): Pins {
  pins ??= createPins({
    storage: browserPinStorage(),
    server: apiPinServer,
    onChange: (items) => useOffline.setState({ pins: items }),
    onPinned: (files, pinned) => void reportPins(files, pinned),
    isPurged: (url) => purged.has(url),
  });
  return pins;
}

/**
 * Sends a report of the device (purges, pins) now, or through the queue when the network is
 * gone; a refusal is only logged (the device's own bookkeeping, nothing the user did).
 */
async function sendDeviceReport(kind: QueuedKind, path: string, body: unknown, label: string): Promise<void> {
  const id = newIdempotencyKey();
  if (!browserOffline()) {
    try {
      await api.request(path, { method: 'POST', body, idempotencyKey: id });
      return;
    } catch (error) {
      if (!isApiError(error) || error.status !== 0) {
        console.warn(`${label} not recorded`, error);
        return;
      }
    }
  }
  await offlineQueue().enqueue({ id, kind, method: 'POST', path, body, label });
}

/** `POST /library/pins`: which documents this device keeps offline (the withdrawal report lists it). */
export function reportPins(files: readonly Pick<OfflineFile, 'id' | 'url'>[], pinned: boolean): Promise<void> {
  const { library, items } = pinSubjects(files);
  if (library.length === 0 && items.length === 0) return Promise.resolve();
  return sendDeviceReport(
    'library_pin',
    '/library/pins',
    { device: deviceId(), library, items, pinned },
    'Offline pins',
  );
}

/** `POST /library/purges`: this device confirms it holds nothing of these documents any more. */
export function reportPurged(report: Omit<DeviceReport, 'device'>): Promise<void> {
  return sendDeviceReport(
    'library_purge',
    '/library/purges',
    { device: deviceId(), library: report.library, items: report.items },
    'Purge confirmation',
  );
}

/** Drops withdrawn documents from every screen's data at once (copies in My Docs stay, marked), then refreshes. */
async function showWithout(withdrawals: LibraryWithdrawal[]): Promise<void> {
  for (const prefix of LIVE_QUERY_KEYS.library) {
    for (const [key, data] of queryClient.getQueriesData({ queryKey: prefix })) {
      if (data === undefined) continue;
      const myDocs = key[0] === 'documents' && key.includes('my');
      queryClient.setQueryData(key, withoutWithdrawn(data, withdrawals, myDocs));
    }
  }
  // The screens take the server's lists; a refresh that does not come back soon is not waited for.
  const refreshed = Promise.all(
    [...LIVE_QUERY_KEYS.library, ...LIVE_QUERY_KEYS.notifications].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
  await Promise.race([refreshed, new Promise((resolve) => setTimeout(resolve, 5_000))]);
}

let withdrawn: WithdrawnSync | null = null;

/** The device's handling of withdrawn documents (live messages, start-up and reconnection checks). */
export function withdrawnSync(): WithdrawnSync {
  withdrawn ??= createWithdrawnSync({
    fetchWithdrawn: (since) => api.get('/library/withdrawn', { since }),
    purge: (withdrawals) =>
      purgeWithdrawn(withdrawals, {
        pins: browserPinStorage(),
        caches: typeof caches === 'undefined' ? undefined : caches,
        purged,
      }).then(async (report) => {
        if (report.pins.length > 0) useOffline.setState({ pins: await offlinePins().list() });
        return report;
      }),
    reportPurged,
    showWithout,
    store: storage,
  });
  return withdrawn;
}

/** A live `library_withdrawn`. */
export function libraryWithdrawn(withdrawal: LibraryWithdrawal): void {
  void withdrawnSync().heard(withdrawal);
}

/** What was withdrawn while the device was away is purged before any screen shows content. */
export function checkWithdrawn(): Promise<void> {
  // Signed out there is nothing to check (and nothing of a user on the device).
  if (!tokenStore.get()) {
    useWithdrawnGate.setState({ status: 'done', rechecking: false });
    return Promise.resolve();
  }
  return withdrawnSync().check();
}

/** Shown on a pending item: it waits for the network. */
export const PENDING_LABEL = 'Waiting for network';
/** Toast when an action is kept for later. */
export const QUEUED_TOAST = 'You are offline. It will be sent when you are back online.';
export const notSentToast = (label: string, message: string) => `Not sent: ${label}. ${message}`;

export type CommandSpec = Omit<NewCommand, 'id' | 'method'> & { method?: 'GET' | 'POST' };
export type CommandResult<T> = { queued: false; value: T } | { queued: true; command: QueuedCommand };

function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/**
 * Runs an action that may be taken offline. Online and with nothing queued before it, it is sent
 * at once; offline, or when its answer never came, it is queued with the key of that attempt (a
 * retry can never do it twice) and sent in order when the network returns. Refusals (4xx) are
 * thrown as usual.
 */
export async function runCommand<T>(spec: CommandSpec): Promise<CommandResult<T>> {
  const command: NewCommand = { ...spec, method: spec.method ?? 'POST', id: newIdempotencyKey() };
  const q = offlineQueue();
  if (!browserOffline() && !(await q.hasPending())) {
    try {
      const value = await api.request<T>(command.path, {
        method: command.method,
        body: command.body,
        idempotencyKey: command.id,
      });
      return { queued: false, value };
    } catch (error) {
      if (!isApiError(error) || error.status !== 0) throw error;
    }
  }
  const queued = await q.enqueue(command);
  toast.dark(QUEUED_TOAST);
  if (!browserOffline()) scheduleSync(0);
  return { queued: true, command: queued };
}

const RETRY_DELAYS_MS = [5_000, 15_000, 30_000, 60_000];
let retries = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
let syncing: Promise<void> | null = null;

function scheduleSync(delay: number): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    void syncNow();
  }, delay);
}

/** Sends the queued actions, then brings the offline copies in line with the server. */
export function syncNow(): Promise<void> {
  syncing ??= (async () => {
    try {
      if (browserOffline()) return;
      const report = await offlineQueue().flush();
      const keys = new Set<string>();
      for (const sent of report.sent) for (const key of REFRESHED_BY_KIND[sent.kind]) keys.add(JSON.stringify(key));
      for (const key of keys) void queryClient.invalidateQueries({ queryKey: JSON.parse(key) as string[] });
      if (report.sent.some((c) => c.kind === 'notification_read')) void refreshBadges();
      for (const refused of report.conflicts) {
        if (BACKGROUND_KINDS.has(refused.kind)) {
          await offlineQueue().dismiss(refused.id);
          continue;
        }
        toast.danger(notSentToast(refused.label, sanitizeServerMessage(refused.message ?? '')), 8000);
      }
      if (report.stopped === 'retry') {
        scheduleSync(RETRY_DELAYS_MS[Math.min(retries, RETRY_DELAYS_MS.length - 1)] ?? 60_000);
        retries += 1;
      } else {
        retries = 0;
      }
      await offlinePins().revalidate();
    } catch (error) {
      console.warn('Offline sync failed', error);
    } finally {
      syncing = null;
    }
  })();
  return syncing;
}

/** Keeps the device in step: network changes, each realtime (re)connection, and start-up. */
export function startOffline(): () => void {
  if (typeof window === 'undefined') return () => {};
  const setOnline = () => {
    useOffline.setState({ online: true });
    // Back from offline: withdrawn documents go before the queue and the pins catch up.
    void checkWithdrawn().then(() => syncNow());
  };
  const setOffline = () => useOffline.setState({ online: false });
  window.addEventListener('online', setOnline);
  window.addEventListener('offline', setOffline);
  // A (re)connection of the live feed is the "next connection" that access changes are checked on.
  const unsubscribe = useRealtime.subscribe((state, previous) => {
    if (state.status === 'open' && previous.status !== 'open') void checkWithdrawn().then(() => syncNow());
  });
  void offlineQueue()
    .list()
    .then((commands) => useOffline.setState({ queue: usersOwn(commands) }))
    .catch(() => undefined);
  void offlinePins()
    .list()
    .then((items) => useOffline.setState({ pins: items }))
    .catch(() => undefined);
  return () => {
    window.removeEventListener('online', setOnline);
    window.removeEventListener('offline', setOffline);
    unsubscribe();
  };
}

/** A live change to documents: offline copies follow (moved, renamed, unshared). */
export function documentsChanged(): void {
  if (!browserOffline()) scheduleSync(500);
}

/** Sign-out: nothing of the user stays on the device (cached answers, files, queued actions). */
export async function clearDevice(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = null;
  useOffline.setState({ queue: [], pins: [], saving: [] });
  withdrawn?.reset();
  await clearOfflineData();
  // An answer already on its way when the caches went may still be saved by the service worker:
  // a second pass a little later removes it.
  setTimeout(() => void clearOfflineData({ caches: typeof caches === 'undefined' ? undefined : caches }), 2_000);
}
