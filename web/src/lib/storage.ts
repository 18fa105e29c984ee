/**
 * Small typed wrapper over `localStorage`. Every access is guarded: private
 * browsing modes and disabled storage throw, and tests run without a DOM.
 */

export const STORAGE_KEYS = {
  token: 'companion.token',
  session: 'companion.session',
  launchLink: 'companion.launch-link',
  notificationLink: 'companion.notification-link',
  /** This device's push subscription (JSON), sent as `push_id` with each device registration. */
  pushSubscription: 'companion.push-subscription',
  /** Notification permission state of spec 4: unknown, yes or no. */
  pushPermission: 'companion.push-permission',
  /** Set once the push prompt was answered or dismissed: it is never shown again. */
  pushPrompted: 'companion.push-prompted',
} as const;

export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

function browserStorage(): Storage | null {
  try {
    return typeof window !== 'undefined' && window.localStorage ? window.localStorage : null;
  } catch {
    return null;
  }
}

/** In-memory store, used when the browser has no usable storage and in tests. */
export function memoryStore(initial: Record<string, string> = {}): KeyValueStore {
  const data = new Map(Object.entries(initial));
  return {
    get: (key) => data.get(key) ?? null,
    set: (key, value) => void data.set(key, value),
    remove: (key) => void data.delete(key),
  };
}

function localStore(): KeyValueStore {
  const fallback = memoryStore();
  return {
    get(key) {
      try {
        return browserStorage()?.getItem(key) ?? fallback.get(key);
      } catch {
        return fallback.get(key);
      }
    },
    set(key, value) {
      try {
        const storage = browserStorage();
        if (storage) storage.setItem(key, value);
        else fallback.set(key, value);
      } catch {
        fallback.set(key, value);
      }
    },
    remove(key) {
      fallback.remove(key);
      try {
        browserStorage()?.removeItem(key);
      } catch {
        /* storage unavailable: nothing to remove */
      }
    },
  };
}

export const storage: KeyValueStore = localStore();

export function readJson<T>(store: KeyValueStore, key: string): T | null {
  const raw = store.get(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    store.remove(key);
    return null;
  }
}

export function writeJson(store: KeyValueStore, key: string, value: unknown): void {
  store.set(key, JSON.stringify(value));
}

/** Where the bearer token lives. */
export interface TokenStore {
  get(): string | null;
  set(token: string): void;
  clear(): void;
}

export function tokenStoreOn(store: KeyValueStore): TokenStore {
  return {
    get: () => store.get(STORAGE_KEYS.token),
    set: (token) => store.set(STORAGE_KEYS.token, token),
    clear: () => store.remove(STORAGE_KEYS.token),
  };
}

export const tokenStore: TokenStore = tokenStoreOn(storage);
