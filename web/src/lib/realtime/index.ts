import { documentsChanged, libraryWithdrawn } from '../offline';
import { queryClient } from '../query-client';
import { readJson, tokenStore, writeJson, type KeyValueStore } from '../storage';
import { useArrivals } from '../stores/arrivals';
import { useBadges } from '../stores/badges';
import { toast } from '../stores/toast';
import { RealtimeClient, type Environment, type Resume, type ResumeStore } from './client';
import { createDispatcher } from './dispatch';

export { useRealtime, selectLastSeq, selectRealtimeStatus, type RealtimeStatus } from './store';

const RESUME_KEY = 'companion.realtime';

function sessionStore(): KeyValueStore | null {
  try {
    return typeof window !== 'undefined' && window.sessionStorage
      ? {
          get: (k) => window.sessionStorage.getItem(k),
          set: (k, v) => window.sessionStorage.setItem(k, v),
          remove: (k) => window.sessionStorage.removeItem(k),
        }
      : null;
  } catch {
    return null;
  }
}

/** The resume point of this tab and user, in sessionStorage (memory only when unavailable). */
export function resumeStoreFor(userKey: string, store: KeyValueStore | null = sessionStore()): ResumeStore {
  let memory: Resume | null = null;
  const guarded = <T>(run: () => T, fallback: T): T => {
    try {
      return run();
    } catch {
      return fallback;
    }
  };
  return {
    load() {
      const saved = store ? guarded(() => readJson<Resume & { user?: string }>(store, RESUME_KEY), null) : null;
      if (saved && saved.user === userKey && typeof saved.seq === 'number' && typeof saved.epoch === 'string') {
        // A point saved before the broadcast stream has no broadcastSeq: it resumes the feed only.
        return typeof saved.broadcastSeq === 'number'
          ? { seq: saved.seq, broadcastSeq: saved.broadcastSeq, epoch: saved.epoch }
          : { seq: saved.seq, epoch: saved.epoch };
      }
      return memory;
    },
    save(resume) {
      memory = resume;
      if (store) guarded(() => writeJson(store, RESUME_KEY, { ...resume, user: userKey }), undefined);
    },
    clear() {
      memory = null;
      if (store) guarded(() => store.remove(RESUME_KEY), undefined);
    },
  };
}

const browserEnvironment: Environment = {
  isOnline: () => (typeof navigator === 'undefined' ? true : navigator.onLine !== false),
  isVisible: () => (typeof document === 'undefined' ? true : document.visibilityState !== 'hidden'),
  listen(handlers) {
    if (typeof window === 'undefined') return () => {};
    const online = () => handlers.online();
    const offline = () => handlers.offline();
    const onVisibility = () => {
      if (document.visibilityState === 'visible') handlers.visible();
    };
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  },
};

function socketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/api/ws`;
}

let current: { client: RealtimeClient; userKey: string } | null = null;

export interface StartOptions {
  /** The signed-in user's id: a resume point is only used by the user it belongs to. */
  userKey: string;
  /** Close 4401 with the current token: the app's session-expired logout. */
  onUnauthorized: () => void;
}

/** Starts the app's one socket (idempotent for the same user). */
export function startRealtime({ userKey, onUnauthorized }: StartOptions): void {
  if (current?.userKey === userKey) return;
  stopRealtime({ forget: true });
  const dispatcher = createDispatcher({
    queryClient,
    badges: () => useBadges.getState(),
    notify: (message) => void toast.dark(message),
    documentsChanged,
    libraryWithdrawn,
    notificationArrived: (arrival) => useArrivals.getState().arrived(arrival),
  });
  const client = new RealtimeClient({
    url: socketUrl(),
    token: () => tokenStore.get(),
    createSocket: (url) => new WebSocket(url),
    resume: resumeStoreFor(userKey),
    environment: browserEnvironment,
    onMessage: (message) => dispatcher.message(message),
    onBroadcast: (message) => dispatcher.broadcast(message),
    onReload: () => dispatcher.reload(),
    onUnauthorized,
  });
  current = { client, userKey };
  client.start();
}

/** Closes the socket; `forget` (logout) also drops this tab's resume point. */
export function stopRealtime({ forget = false }: { forget?: boolean } = {}): void {
  if (!current) return;
  current.client.stop(forget);
  current = null;
}
