import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { createPins, usedBytes, type OfflineItem, type PinServer, type PinStorage } from './pins';

/** Cache Storage is a browser API (the e2e suite uses the real one); this keeps responses by address. */
function memoryStorage(): PinStorage & { urls: () => string[] } {
  const items = new Map<string, OfflineItem>();
  const files = new Map<string, Response>();
  const cache = {
    put: (url: string, response: Response) => {
      files.set(url, response);
      return Promise.resolve();
    },
    delete: (url: string) => Promise.resolve(files.delete(url)),
    match: (url: string) => Promise.resolve(files.get(url)?.clone()),
  } as unknown as Cache;
  return {
    all: () => Promise.resolve([...items.values()]),
    put: (item) => {
      items.set(item.id, structuredClone(item));
      return Promise.resolve();
    },
    remove: (id) => {
      items.delete(id);
      return Promise.resolve();
    },
    files: () => Promise.resolve(cache),
    urls: () => [...files.keys()].sort(),
  };
}

function server(
  visible: Record<string, string | ApiError>,
  folder: Record<string, string[] | ApiError> = {},
): PinServer {
  return {
    download: (url) => Promise.resolve({ blob: new Blob([`bytes of ${url}`]), contentType: 'application/pdf' }),
    check: (id) => {
      const answer = visible[id];
      if (answer instanceof ApiError) return Promise.reject(answer);
      return answer === undefined ? Promise.reject(new ApiError(404, 'Not found')) : Promise.resolve({ name: answer });
    },
    folderFiles: (f) => {
      const answer = folder[f.id];
      if (answer instanceof ApiError) return Promise.reject(answer);
      return Promise.resolve(
        (answer ?? []).map((id) => ({ id, title: id, name: id, url: `/api/documents/${id}/file` })),
      );
    },
  };
}

const file = (id: string) => ({ id, title: id, name: id, url: `/api/documents/${id}/file` });

describe('documents kept offline', () => {
  it('stores the bytes and reads them back; the space used is the sum of the files', async () => {
    const storage = memoryStorage();
    const pins = createPins({ storage, server: server({}) });
    await pins.pinFile(file('a'));
    const copy = await pins.read('/api/documents/a/file');
    expect(await copy?.blob.text()).toBe('bytes of /api/documents/a/file');
    expect(copy?.contentType).toBe('application/pdf');
    expect(usedBytes(await pins.list())).toBe('bytes of /api/documents/a/file'.length);
    await pins.unpin('a');
    expect(await pins.read('/api/documents/a/file')).toBeNull();
    expect(storage.urls()).toEqual([]);
  });

  it('removes what the user no longer sees, takes new names, and keeps everything when the network fails', async () => {
    const storage = memoryStorage();
    let visible: Record<string, string | ApiError> = {};
    const pins = createPins({ storage, server: { ...server({}), check: (id) => server(visible).check(id) } });
    for (const id of ['gone', 'forbidden', 'renamed', 'offline', 'library']) await pins.pinFile(file(id));
    await pins.pinFile({ ...file('lib'), library: true });

    visible = {
      forbidden: new ApiError(403, 'no'),
      renamed: 'New name',
      offline: new ApiError(0, null),
      library: 'library',
    };
    const report = await pins.revalidate();

    expect(report.removed.sort()).toEqual(['forbidden', 'gone']);
    expect(report.renamed).toEqual(['renamed']);
    const left = await pins.list();
    expect(left.map((i) => i.id).sort()).toEqual(['lib', 'library', 'offline', 'renamed']);
    expect(left.find((i) => i.id === 'renamed')?.title).toBe('New name');
    expect(storage.urls()).not.toContain('/api/documents/gone/file');
    expect(storage.urls()).not.toContain('/api/documents/forbidden/file');
  });

  it('keeps a pinned folder in step with its contents, and drops it with its files when access ends', async () => {
    const storage = memoryStorage();
    let contents: Record<string, string[] | ApiError> = { f: ['a', 'b'] };
    const visible = { a: 'a', b: 'b', c: 'c' };
    const pins = createPins({
      storage,
      server: { ...server(visible), folderFiles: (folder) => server(visible, contents).folderFiles(folder) },
    });
    await pins.pinFolder({ id: 'f', title: 'Kit', type: 'shared' });
    expect(storage.urls()).toEqual(['/api/documents/a/file', '/api/documents/b/file']);

    contents = { f: ['b', 'c'] };
    const report = await pins.revalidate();
    expect(report.added).toEqual(['c']);
    expect(report.removed).toEqual(['a']);
    expect(storage.urls()).toEqual(['/api/documents/b/file', '/api/documents/c/file']);

    contents = { f: new ApiError(404, 'gone') };
    await pins.revalidate();
    expect(await pins.list()).toEqual([]);
    expect(storage.urls()).toEqual([]);
  });
});

describe('pins and withdrawn documents', () => {
  it('tells the server side what is kept and let go, and never keeps or opens a purged address', async () => {
    const storage = memoryStorage();
    const reports: [string[], boolean][] = [];
    const purged = new Set(['/api/library/12/file']);
    const pins = createPins({
      storage,
      server: server({}, { f: ['a', 'b'] }),
      onPinned: (files, pinned) => reports.push([files.map((f) => f.id).sort(), pinned]),
      isPurged: (url) => purged.has(url),
    });
    await pins.pinFile({ id: 'x', title: 'x', name: 'x', url: '/api/documents/x/file' });
    await pins.pinFolder({ id: 'f', title: 'F', type: 'my' });
    await pins.unpin('f');
    await pins.unpin('x');
    expect(reports).toEqual([
      [['x'], true],
      [['a', 'b'], true],
      [['a', 'b'], false],
      [['x'], false],
    ]);
    await expect(
      pins.pinFile({
        id: '/api/library/12/file',
        title: 'Old',
        name: 'Old',
        url: '/api/library/12/file',
        library: true,
      }),
    ).rejects.toThrow();
    expect(storage.urls()).toEqual([]);
    // A copy somehow left in the cache does not open once purged.
    await pins.pinFile({ id: 'y', title: 'y', name: 'y', url: '/api/documents/y/file' });
    expect(await pins.read('/api/documents/y/file')).not.toBeNull();
    purged.add('/api/documents/y/file');
    expect(await pins.read('/api/documents/y/file')).toBeNull();
  });
});
