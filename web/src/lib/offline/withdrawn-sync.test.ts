import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { memoryStore } from '../storage';
import type { PurgeReport } from './withdrawn';
import { createWithdrawnSync, LAST_CHECK_KEY, useWithdrawnGate } from './withdrawn-sync';

const entry = { id: 12, state: 'expired', at: 5, reason: 'Out of date', replacement: null, items: ['item-1'] };

function setup(answer: () => Promise<unknown>, held: Partial<PurgeReport> = {}) {
  const store = memoryStore();
  const purge = vi.fn(() => Promise.resolve({ library: [], items: [], pins: [], answers: [], ...held }));
  const reportPurged = vi.fn(() => Promise.resolve());
  const showWithout = vi.fn(() => Promise.resolve());
  const fetchWithdrawn = vi.fn(answer as (since: number) => Promise<{ now?: unknown; documents?: unknown }>);
  let clock = 10_000;
  const sync = createWithdrawnSync({ fetchWithdrawn, purge, reportPurged, showWithout, store, now: () => clock });
  return { sync, store, purge, reportPurged, showWithout, fetchWithdrawn, tick: (ms: number) => (clock += ms) };
}

describe('documents withdrawn while the device was away', () => {
  beforeEach(() => useWithdrawnGate.setState({ status: 'pending', rechecking: false }));

  it('gates the screens until what was withdrawn is purged, then remembers the server time', async () => {
    let release: ((value: unknown) => void) | null = null;
    const first = new Promise((resolve) => (release = resolve));
    const t = setup(() => (release ? first : Promise.resolve({ now: 900, documents: [] })), {
      library: [12],
      items: ['item-1'],
    });
    const checking = t.sync.check();
    expect(useWithdrawnGate.getState().status).toBe('checking');
    const answer = release as ((value: unknown) => void) | null;
    release = null;
    answer?.({ now: 777, documents: [entry, { nonsense: true }] });
    await checking;
    expect(t.fetchWithdrawn).toHaveBeenCalledWith(0);
    expect(t.purge).toHaveBeenCalledWith([expect.objectContaining({ id: 12, state: 'expired', items: ['item-1'] })]);
    expect(t.reportPurged).toHaveBeenCalledWith({ library: [12], items: ['item-1'] });
    expect(t.showWithout).toHaveBeenCalledTimes(1);
    expect(t.store.get(LAST_CHECK_KEY)).toBe('777');
    expect(useWithdrawnGate.getState().status).toBe('done');

    // The next check asks only for what came after, and hides the screen while it runs.
    t.tick(60_000);
    const again = t.sync.check();
    expect(useWithdrawnGate.getState().rechecking).toBe(true);
    await again;
    expect(t.fetchWithdrawn).toHaveBeenLastCalledWith(777);
    expect(t.store.get(LAST_CHECK_KEY)).toBe('900');
    expect(useWithdrawnGate.getState()).toMatchObject({ status: 'done', rechecking: false });
  });

  it('does not confirm a purge of what the device never held', async () => {
    const t = setup(() => Promise.resolve({ now: 5, documents: [entry] }));
    await t.sync.check();
    expect(t.purge).toHaveBeenCalled();
    expect(t.reportPurged).not.toHaveBeenCalled();
  });

  it('opens the screens when offline, without moving the last check', async () => {
    const t = setup(() => Promise.reject(new ApiError(0, null)));
    t.store.set(LAST_CHECK_KEY, '42');
    await t.sync.check();
    expect(useWithdrawnGate.getState().status).toBe('done');
    expect(t.purge).not.toHaveBeenCalled();
    expect(t.store.get(LAST_CHECK_KEY)).toBe('42');
  });

  it('opens the screens when the server cannot answer', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const t = setup(() => Promise.reject(new ApiError(500, 'boom')));
    await t.sync.check();
    expect(useWithdrawnGate.getState().status).toBe('done');
    warn.mockRestore();
  });

  it('shares one check between concurrent callers and skips one right after', async () => {
    const t = setup(() => Promise.resolve({ now: 1, documents: [] }));
    await Promise.all([t.sync.check(), t.sync.check()]);
    await t.sync.check();
    expect(t.fetchWithdrawn).toHaveBeenCalledTimes(1);
    expect(t.showWithout).not.toHaveBeenCalled();
  });

  it('a live withdrawal leaves the screens, is purged and confirmed with all its items', async () => {
    const t = setup(() => Promise.resolve({}));
    await t.sync.heard({ ...entry, state: 'withdrawn', items: ['item-1', 'copy-2'] });
    expect(t.showWithout).toHaveBeenCalled();
    expect(t.purge).toHaveBeenCalled();
    expect(t.reportPurged).toHaveBeenCalledWith({ library: [12], items: ['item-1', 'copy-2'] });
  });

  it('sign-out puts the gate back for the next user', async () => {
    const t = setup(() => Promise.resolve({ now: 1, documents: [] }));
    await t.sync.check();
    t.sync.reset();
    expect(useWithdrawnGate.getState().status).toBe('pending');
  });
});
