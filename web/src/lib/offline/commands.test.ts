import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { offlineQueue, runCommand } from './index';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const keyOf = (call: unknown[] | undefined) =>
  new Headers((call?.[1] as RequestInit | undefined)?.headers).get('Idempotency-Key');

afterEach(async () => {
  vi.unstubAllGlobals();
  for (const command of await offlineQueue().list()) await offlineQueue().dismiss(command.id);
});

describe('runCommand', () => {
  it('sends at once when online, with an Idempotency-Key', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(json(201, { id: 'f9' }));
    vi.stubGlobal('fetch', fetchMock);
    const result = await runCommand<{ id: string }>({
      kind: 'create_folder',
      path: '/folders',
      body: { name: 'A' },
      label: 'A',
    });
    expect(result).toEqual({ queued: false, value: { id: 'f9' } });
    expect(keyOf(fetchMock.mock.calls[0])).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('queues an action whose answer was lost with the key of that attempt, and sends it again with it', async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue(json(201, { id: 'f9' }));
    vi.stubGlobal('fetch', fetchMock);
    const result = await runCommand({ kind: 'create_folder', path: '/folders', body: { name: 'A' }, label: 'A' });
    expect(result.queued).toBe(true);
    const firstKey = keyOf(fetchMock.mock.calls[0]);
    expect(result.queued && result.command.id).toBe(firstKey);

    await offlineQueue().flush();
    expect(keyOf(fetchMock.mock.calls[1])).toBe(firstKey);
    expect(await offlineQueue().list()).toEqual([]);
  });

  it('queues without trying while the browser is offline, behind what is already queued', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(json(200, {}));
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('navigator', { onLine: false });
    await runCommand({ kind: 'create_folder', path: '/folders', body: { name: 'A' }, label: 'A' });
    await runCommand({ kind: 'rename', path: '/folders/1', body: { name: 'B' }, label: 'B' });
    expect(fetchMock).not.toHaveBeenCalled();
    expect((await offlineQueue().list()).map((c) => c.label)).toEqual(['A', 'B']);
  });

  it('throws refusals as before (the form shows them)', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(json(400, { message: 'max depth' })));
    const error = await runCommand({ kind: 'create_folder', path: '/folders', label: 'A' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(await offlineQueue().list()).toEqual([]);
  });
});
