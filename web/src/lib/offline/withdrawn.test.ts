import { describe, expect, it } from 'vitest';
import { memoryStore } from '../storage';
import type { LibraryWithdrawal } from '../realtime/dispatch';
import type { OfflineItem } from './pins';
import { pinSubjects, purgedFiles, purgeWithdrawn, withdrawnFileUrls, withoutWithdrawn } from './withdrawn';

const withdrawal = (id: number, items: string[] = []): LibraryWithdrawal => ({
  id,
  state: 'withdrawn',
  at: 1_700_000_000_000,
  reason: 'Superseded',
  replacement: { id: 9, title: 'New brochure', url: '/api/library/9/file' },
  items,
});

const file = (id: string, url: string): OfflineItem => ({
  kind: 'file',
  id,
  title: id,
  name: id,
  url,
  size: 3,
  contentType: 'application/pdf',
  savedAt: 0,
  via: null,
});

/** Cache Storage in memory: caches by name, answers by address. */
function memoryCaches(entries: Record<string, Record<string, Response>>) {
  const data = new Map(Object.entries(entries).map(([name, answers]) => [name, new Map(Object.entries(answers))]));
  const cacheOf = (name: string) => {
    const answers = data.get(name) ?? new Map<string, Response>();
    data.set(name, answers);
    return {
      keys: () => Promise.resolve([...answers.keys()].map((url) => new Request(`http://app.test${url}`))),
      match: (request: Request) =>
        Promise.resolve(answers.get(new URL(request.url).pathname + new URL(request.url).search)?.clone()),
      delete: (request: Request | string) => {
        const url = typeof request === 'string' ? request : new URL(request.url).pathname + new URL(request.url).search;
        return Promise.resolve(answers.delete(url));
      },
    };
  };
  return {
    storage: { keys: () => Promise.resolve([...data.keys()]), open: (name: string) => Promise.resolve(cacheOf(name)) },
    urls: (name: string) => [...(data.get(name)?.keys() ?? [])].sort(),
  };
}

function memoryPins(items: OfflineItem[]) {
  const kept = new Map(items.map((i) => [i.id, i]));
  const deleted: string[] = [];
  return {
    pins: {
      all: () => Promise.resolve([...kept.values()]),
      remove: (id: string) => Promise.resolve(void kept.delete(id)),
      files: () =>
        Promise.resolve({ delete: (url: string) => Promise.resolve(deleted.push(url) > 0) } as unknown as Cache),
    },
    ids: () => [...kept.keys()].sort(),
    deleted,
  };
}

const json = (value: unknown) =>
  new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } });

describe('purging a withdrawn document from the device', () => {
  it('names the library file and every item file', () => {
    expect(withdrawnFileUrls(withdrawal(12, ['a', 'b c']))).toEqual([
      '/api/library/12/file',
      '/api/documents/a/file',
      '/api/documents/b%20c/file',
    ]);
  });

  it('removes its pins, cached files and cached lists naming it, and keeps everything else', async () => {
    const pins = memoryPins([
      file('/api/library/12/file', '/api/library/12/file'),
      file('item-1', '/api/documents/item-1/file'),
      file('item-keep', '/api/documents/item-keep/file'),
      file('/api/library/13/file', '/api/library/13/file'),
    ]);
    const caches = memoryCaches({
      'workbox-precache-v2': { '/index.html': new Response('<html>/api/library/12/file</html>') },
      'companion-api': {
        '/api/documents?type=us': json({ list: [{ id: 'item-1', url: '/api/documents/item-1/file' }] }),
        '/api/documents?type=my': json({ list: [{ id: 'item-keep' }] }),
        '/api/documents/item-1/file?download=1': new Response('bytes'),
      },
      'companion-content': {
        '/api/products/4/attachments': json([{ id: 12, url: '/api/library/12/file' }]),
        '/api/products/5/attachments': json([{ id: 13, url: '/api/library/13/file' }]),
      },
    });
    const purged = purgedFiles(memoryStore());
    const report = await purgeWithdrawn([withdrawal(12, ['item-1', 'item-2'])], {
      pins: pins.pins,
      caches: caches.storage,
      purged,
    });
    expect(pins.ids()).toEqual(['/api/library/13/file', 'item-keep']);
    expect(pins.deleted.sort()).toEqual(['/api/documents/item-1/file', '/api/library/12/file']);
    expect(caches.urls('companion-api')).toEqual(['/api/documents?type=my']);
    expect(caches.urls('companion-content')).toEqual(['/api/products/5/attachments']);
    // The app shell holds no user data and is never touched.
    expect(caches.urls('workbox-precache-v2')).toEqual(['/index.html']);
    expect(report.library).toEqual([12]);
    expect(report.items).toEqual(['item-1']);
    expect(report.pins.sort()).toEqual(['/api/library/12/file', 'item-1']);
    // A purged copy never opens again, whatever address form asks for it.
    expect(purged.has('/api/library/12/file')).toBe(true);
    expect(purged.has('/api/documents/item-2/file?download=1')).toBe(true);
    expect(purged.has('/api/library/13/file')).toBe(false);
  });

  it('reports nothing for a document the device never held', async () => {
    const pins = memoryPins([file('item-keep', '/api/documents/item-keep/file')]);
    const report = await purgeWithdrawn([withdrawal(40, ['x'])], {
      pins: pins.pins,
      caches: memoryCaches({ 'companion-api': { '/api/news': json([{ id: 'y' }]) } }).storage,
      purged: purgedFiles(memoryStore()),
    });
    expect(report).toEqual({ library: [], items: [], pins: [], answers: [] });
    expect(pins.ids()).toEqual(['item-keep']);
  });

  it('keeps the purged list bounded and survives a broken stored value', () => {
    const store = memoryStore({ 'companion.purged-files': 'not json' });
    const purged = purgedFiles(store);
    expect(purged.has('/api/library/1/file')).toBe(false);
    purged.add(Array.from({ length: 2_100 }, (_, i) => `/api/library/${i}/file`));
    expect(purged.has('/api/library/0/file')).toBe(false);
    expect(purged.has('/api/library/2099/file')).toBe(true);
  });
});

describe('screens without withdrawn documents', () => {
  const data = {
    list: [
      { id: 'item-1', title: 'Old brochure', actions: ['open'], url: '/api/documents/item-1/file' },
      { id: 'item-2', title: 'Other', actions: ['open'] },
    ],
    attachments: [
      {
        documents: [
          { id: 12, url: '/api/library/12/file' },
          { id: 13, url: '/api/library/13/file' },
        ],
      },
    ],
  };

  it('drops them from every list, wherever they sit', () => {
    const out = withoutWithdrawn(data, [withdrawal(12, ['item-1'])]);
    expect(out.list.map((i) => i.id)).toEqual(['item-2']);
    expect(out.attachments[0]?.documents.map((d) => d.id)).toEqual([13]);
    expect(data.list).toHaveLength(2);
  });

  it('keeps a copy in My Docs, marked withdrawn and without actions', () => {
    const out = withoutWithdrawn(data, [withdrawal(12, ['item-1'])], true);
    expect(out.list[0]).toMatchObject({
      id: 'item-1',
      actions: [],
      withdrawn: { state: 'withdrawn', reason: 'Superseded', replacement: { id: 9 } },
    });
    expect(out.list[1]).toBe(data.list[1]);
  });

  it('leaves data that does not hold them as it is', () => {
    expect(withoutWithdrawn(data, [withdrawal(77, ['nope'])])).toBe(data);
  });
});

describe('what a pin stands for', () => {
  it('reads library ids and item ids from the file addresses', () => {
    expect(
      pinSubjects([
        { id: '/api/library/12/file', url: '/api/library/12/file' },
        { id: 'a b', url: '/api/documents/a%20b/file' },
        { id: 'media', url: '/media/x.pdf' },
        { id: 'dup', url: '/api/library/12/file' },
      ]),
    ).toEqual({ library: [12], items: ['a b'] });
  });
});
