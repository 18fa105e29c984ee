import { OFFLINE_DATABASES } from './idb';

/** Caches that hold nothing of a user: the app's own files, precached by the service worker. */
export function isAppShellCache(name: string): boolean {
  return name.startsWith('workbox-precache');
}

export interface ClearTargets {
  caches?: Pick<CacheStorage, 'keys' | 'delete'>;
  indexedDB?: Pick<IDBFactory, 'deleteDatabase'>;
}

function deleteDatabase(factory: Pick<IDBFactory, 'deleteDatabase'>, name: string): Promise<void> {
  return new Promise((resolve) => {
    const request = factory.deleteDatabase(name);
    request.onsuccess = () => resolve();
    // A failure leaves nothing to wait for; `blocked` resolves once our connections close.
    request.onerror = () => resolve();
  });
}

/**
 * Removes everything of the signed-in user from the device: cached answers, files kept offline
 * and queued actions. Only the app shell stays (it holds no user data).
 */
export async function clearOfflineData(
  targets: ClearTargets = {
    caches: typeof caches === 'undefined' ? undefined : caches,
    indexedDB: typeof indexedDB === 'undefined' ? undefined : indexedDB,
  },
): Promise<void> {
  const work: Promise<unknown>[] = [];
  if (targets.caches) {
    const store = targets.caches;
    const names = await store.keys();
    for (const name of names) if (!isAppShellCache(name)) work.push(store.delete(name));
  }
  if (targets.indexedDB) {
    for (const name of Object.values(OFFLINE_DATABASES)) work.push(deleteDatabase(targets.indexedDB, name));
  }
  await Promise.all(work);
}
