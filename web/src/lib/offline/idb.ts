import type { UseStore } from 'idb-keyval';

/** The IndexedDB databases of the app (one object store each); sign-out deletes them all. */
export const OFFLINE_DATABASES = {
  queue: 'companion-queue',
  pins: 'companion-pins',
} as const;

function opened(request: IDBOpenDBRequest): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
  });
}

/**
 * An idb-keyval store that lets go of its database when asked (`versionchange`): idb-keyval's own
 * `createStore` keeps the connection open, so `deleteDatabase` at sign-out would wait for ever.
 */
export function closableStore(dbName: string, storeName = 'kv'): UseStore {
  let db: Promise<IDBDatabase> | null = null;
  const open = (): Promise<IDBDatabase> => {
    if (db) return db;
    const request = indexedDB.open(dbName);
    request.onupgradeneeded = () => request.result.createObjectStore(storeName);
    db = opened(request).then((database) => {
      database.onversionchange = () => {
        database.close();
        db = null;
      };
      database.onclose = () => {
        db = null;
      };
      return database;
    });
    db.catch(() => {
      db = null;
    });
    return db;
  };
  return (mode, callback) =>
    open().then((database) => callback(database.transaction(storeName, mode).objectStore(storeName)));
}
