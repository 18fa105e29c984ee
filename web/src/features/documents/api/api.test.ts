import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { memoryStore, STORAGE_KEYS, tokenStoreOn } from '@/lib/storage';
import { createFolder } from './create-folder';
import { deleteItem } from './delete-item';
import { fetchBinary, fetchFile } from './get-file';
import { getDocuments } from './get-documents';
import { getFolder } from './get-folder';
import { moveItem } from './move-item';
import { moveToMyDocs } from './move-to-mydocs';
import { renameItem } from './rename-item';
import { saveToMyDocs } from './save-to-mydocs';
import { shareItem } from './share-item';
import { uploadForm } from './upload-file';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function mockFetch(...responses: Response[]) {
  const fetchMock = vi.fn<typeof fetch>();
  for (const r of responses) fetchMock.mockResolvedValueOnce(r);
  fetchMock.mockResolvedValue(json(200, {}));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function call(fetchMock: ReturnType<typeof mockFetch>, index = 0) {
  const [url, init] = fetchMock.mock.calls[index] ?? [];
  const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : init?.body;
  return { url, method: init?.method, body };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('documents API calls', () => {
  it('reads the three lists from their paths', async () => {
    const fetchMock = mockFetch(
      json(200, { list: [], type: 'my' }),
      json(200, { list: [], type: 'shared' }),
      json(200, { list: [], type: 'us' }),
    );
    await getDocuments('my');
    await getDocuments('shared');
    await getDocuments('us');
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      '/api/documents/my',
      '/api/documents/shared',
      '/api/usadocs',
    ]);
  });

  it('reads a folder by id and type', async () => {
    const fetchMock = mockFetch(json(200, { list: [], back: null, type: 'shared', name: 'X' }));
    await getFolder('f 1', 'shared');
    expect(call(fetchMock).url).toBe('/api/folders/f%201?type=shared');
  });

  it('creates folders in my with a parent or null', async () => {
    const fetchMock = mockFetch();
    await createFolder({ name: 'Plans', parent: null });
    await createFolder({ name: 'Sub', parent: '9' });
    expect(call(fetchMock, 0)).toEqual({
      url: '/api/folders',
      method: 'POST',
      body: { name: 'Plans', type: 'my', parent: null },
    });
    expect(call(fetchMock, 1).body).toEqual({ name: 'Sub', type: 'my', parent: '9' });
  });

  it('renames, deletes and removes through the right calls', async () => {
    const fetchMock = mockFetch();
    await renameItem({ id: '5', name: 'New' });
    await deleteItem({ id: '6', type: 'folder' });
    await deleteItem({ id: '7', type: 'file' });
    expect(call(fetchMock, 0)).toEqual({ url: '/api/folders/5', method: 'POST', body: { name: 'New' } });
    expect(call(fetchMock, 1)).toEqual({ url: '/api/folders/6/delete', method: 'POST', body: undefined });
    expect(call(fetchMock, 2)).toEqual({ url: '/api/documents/remove', method: 'POST', body: { id: '7' } });
  });

  it('moves folders and files, null for the root', async () => {
    const fetchMock = mockFetch();
    await moveItem({ item: { id: '2', type: 'folder' }, destination: null });
    await moveItem({ item: { id: '3', type: 'file' }, destination: '8' });
    expect(call(fetchMock, 0)).toMatchObject({ url: '/api/folders/move', body: { destination: null, folder: '2' } });
    expect(call(fetchMock, 1)).toMatchObject({ url: '/api/documents/move', body: { folder: '8', file: '3' } });
  });

  it('shares through the call of each kind', async () => {
    const fetchMock = mockFetch();
    const email = 'john.miller@example.com';
    await shareItem({ kind: 'folder', id: '1', email });
    await shareItem({ kind: 'internal', id: '2', email });
    await shareItem({ kind: 'storage', id: '3', email });
    await shareItem({ kind: 'external', id: '4', email });
    expect([0, 1, 2, 3].map((i) => call(fetchMock, i))).toMatchObject([
      { url: '/api/folders/share', body: { email, folder: '1' } },
      { url: '/api/documents/share', body: { email, file: '2' } },
      { url: '/api/documents/storage-share', body: { email, file: '3' } },
      { url: '/api/documents/external-share', body: { email, file: '4' } },
    ]);
  });

  it('sends an external link’s options, leaving out a limit of opens not asked for', async () => {
    const fetchMock = mockFetch();
    const email = 'dr.bianchi@clinic.example';
    await shareItem({
      kind: 'external',
      id: '4',
      email,
      link: { expires_in_days: 3, allow_download: false, max_opens: 2 },
    });
    await shareItem({
      kind: 'external',
      id: '5',
      email,
      link: { expires_in_days: 7, allow_download: true, max_opens: null },
    });
    expect(call(fetchMock, 0).body).toEqual({
      email,
      file: '4',
      expires_in_days: 3,
      allow_download: false,
      max_opens: 2,
    });
    expect(call(fetchMock, 1).body).toEqual({ email, file: '5', expires_in_days: 7, allow_download: true });
  });

  it('saves and moves to My Docs', async () => {
    const fetchMock = mockFetch();
    await saveToMyDocs('11');
    await moveToMyDocs({ id: '12', type: 'folder' });
    expect(call(fetchMock, 0)).toMatchObject({ url: '/api/documents/favorite', body: { folder: null, file: '11' } });
    expect(call(fetchMock, 1)).toMatchObject({ url: '/api/folders/mydocs', body: { type: 'folder', source: '12' } });
  });

  it('turns an error body into an ApiError with the server message', async () => {
    mockFetch(json(400, { message: 'You cannot create further folders, you have reached max depth level' }));
    const error = await createFolder({ name: 'Deep', parent: '5' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).serverMessage).toBe(
      'You cannot create further folders, you have reached max depth level',
    );
  });
});

describe('upload form', () => {
  it('sends name, file and parent (empty for the root)', () => {
    const file = new Blob(['%PDF-1.4'], { type: 'application/pdf' });
    const root = uploadForm({ name: 'Plan', file, fileName: 'plan.pdf', parent: null });
    expect(root.get('name')).toBe('Plan');
    expect(root.get('parent')).toBe('');
    expect((root.get('file') as File).name).toBe('plan.pdf');
    expect(uploadForm({ name: 'Plan', file, fileName: 'plan.pdf', parent: '4' }).get('parent')).toBe('4');
  });
});

describe('file fetch', () => {
  const tokens = tokenStoreOn(memoryStore({ [STORAGE_KEYS.token]: 'tok' }));

  it('sends the bearer token and returns the bytes with their type', async () => {
    const fetchImpl = vi
      .fn<typeof fetch>()
      .mockResolvedValue(
        new Response(new Uint8Array([37, 80, 68, 70]), { status: 200, headers: { 'Content-Type': 'application/pdf' } }),
      );
    const file = await fetchFile('/api/documents/3/file', true, { tokens, fetchImpl });
    const [url, init] = fetchImpl.mock.calls[0] ?? [];
    expect(url).toBe('/api/documents/3/file?download=1');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer tok');
    expect(file.contentType).toBe('application/pdf');
    expect(file.blob.size).toBe(4);
  });

  it('fails with the server message', async () => {
    const fetchImpl = vi.fn<typeof fetch>().mockResolvedValue(json(404, { message: 'Not found' }));
    const error = await fetchBinary('/api/documents/9/file', { tokens, fetchImpl }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, serverMessage: 'Not found' });
  });

  it('reports a network failure as status 0', async () => {
    const fetchImpl = vi.fn<typeof fetch>().mockRejectedValue(new TypeError('offline'));
    const error = await fetchBinary('/x', { tokens, fetchImpl }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0 });
  });
});
