import 'fake-indexeddb/auto';
import { get, set } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { clearOfflineData, isAppShellCache } from './clear';
import { closableStore, OFFLINE_DATABASES } from './idb';
import { indexedDbQueueStore } from './store';

/** Cache Storage is a browser API (the e2e suite checks the real one); this keeps the names only. */
function cacheNames(names: string[]) {
  const kept = new Set(names);
  return {
    keys: () => Promise.resolve([...kept]),
    delete: (name: string) => Promise.resolve(kept.delete(name)),
    kept,
  };
}

async function databaseNames(): Promise<string[]> {
  return (await indexedDB.databases()).map((d) => d.name ?? '').sort();
}

describe('clearing the device at sign-out', () => {
  it('deletes every cache but the app shell', async () => {
    const caches = cacheNames([
      'workbox-precache-v2-http://x/',
      'companion-api',
      'companion-content',
      'companion-files',
    ]);
    await clearOfflineData({ caches });
    expect([...caches.kept]).toEqual(['workbox-precache-v2-http://x/']);
    expect(isAppShellCache('companion-files')).toBe(false);
  });

  it('deletes the queue and pins databases even while the app holds them open', async () => {
    const queue = indexedDbQueueStore();
    await queue.put({
      id: 'k1',
      queuedAt: 1,
      seq: 0,
      kind: 'create_folder',
      method: 'POST',
      path: '/folders',
      body: { name: 'Plans' },
      label: 'Create folder Plans',
      state: 'pending',
      attempts: 0,
    });
    const pins = closableStore(OFFLINE_DATABASES.pins);
    await set('f1', { kind: 'file', id: 'f1' }, pins);
    expect(await databaseNames()).toEqual(['companion-pins', 'companion-queue']);

    await clearOfflineData({ indexedDB });

    expect(await databaseNames()).toEqual([]);
    // The stores open a fresh, empty database when used again (the next user).
    expect(await queue.list()).toEqual([]);
    expect(await get('f1', pins)).toBeUndefined();
  });
});
