import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refreshBadges } from '../api/badges';
import { createDispatcher } from '../realtime/dispatch';
import { useBadges } from './badges';

/** `GET /badges` answering `body` once `release` is called. */
function answer(body: unknown) {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async () => {
      await gate;
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return { release };
}

/** The app's dispatcher writing into the real badges store. */
function feed() {
  const dispatcher = createDispatcher({
    queryClient: { invalidateQueries: vi.fn(() => Promise.resolve()) },
    badges: () => useBadges.getState(),
    notify: vi.fn(),
  });
  return {
    broadcast: (seq: number, kind: string, payload: unknown = {}) =>
      dispatcher.broadcast({ seq, kind, payload, at: 0 }),
    badge: (payload: unknown) => dispatcher.message({ seq: 1, kind: 'badge', payload, at: 0 }),
  };
}

const counts = () => {
  const { notificationsUnread, updatesUnread, sharedNew } = useBadges.getState();
  return { notificationsUnread, updatesUnread, sharedNew };
};

beforeEach(() => useBadges.getState().reset());
afterEach(() => vi.unstubAllGlobals());

describe('badges counted from broadcasts', () => {
  it('counts each broadcast number once, on its own counter', () => {
    const { broadcast } = feed();
    broadcast(5, 'notification');
    broadcast(5, 'notification');
    broadcast(4, 'notification');
    broadcast(6, 'app_update');
    broadcast(6, 'app_update');
    broadcast(7, 'notification');
    expect(counts()).toEqual({ notificationsUnread: 2, updatesUnread: 1, sharedNew: 0 });
    expect(useBadges.getState().through).toEqual({ notificationsUnread: 7, updatesUnread: 6 });
  });

  it('leaves the counts alone on content_changed', () => {
    const { broadcast } = feed();
    const before = useBadges.getState();
    broadcast(3, 'content_changed', { kind: 'news', ids: [1] });
    expect(useBadges.getState()).toBe(before);
  });

  it('does not count again a broadcast a badge message already includes', () => {
    const { broadcast, badge } = feed();
    badge({ name: 'notifications', count: 3, through: 17 });
    badge({ name: 'updates', count: 1, through: 17 });
    broadcast(16, 'notification');
    broadcast(17, 'notification');
    broadcast(17, 'app_update');
    expect(counts()).toMatchObject({ notificationsUnread: 3, updatesUnread: 1 });
    broadcast(18, 'notification');
    expect(counts()).toMatchObject({ notificationsUnread: 4, updatesUnread: 1 });
  });

  it('sets only the count from a badge message without through (older server)', () => {
    const { broadcast, badge } = feed();
    broadcast(10, 'notification');
    badge({ name: 'notifications', count: 5 });
    expect(useBadges.getState()).toMatchObject({ notificationsUnread: 5, through: { notificationsUnread: 10 } });
    broadcast(10, 'notification');
    broadcast(11, 'notification');
    expect(counts().notificationsUnread).toBe(6);
  });

  it('does not count again a broadcast the GET /badges answer already includes', async () => {
    const { broadcast } = feed();
    const { release } = answer({ notifications: 3, updates: 1, shared: 2, broadcast_seq: 17 });
    release();
    await refreshBadges();
    expect(useBadges.getState().through).toEqual({ notificationsUnread: 17, updatesUnread: 17 });
    // The replay delivers what was published before the answer was read.
    broadcast(17, 'notification');
    broadcast(15, 'app_update');
    expect(counts()).toEqual({ notificationsUnread: 3, updatesUnread: 1, sharedNew: 2 });
    broadcast(18, 'app_update');
    expect(counts()).toEqual({ notificationsUnread: 3, updatesUnread: 2, sharedNew: 2 });
  });

  it('applies a GET /badges answer with the broadcasts counted above its number while it was on its way', async () => {
    const { broadcast } = feed();
    const { release } = answer({ notifications: 5, updates: 2, shared: 1, broadcast_seq: 17 });
    const loading = refreshBadges();
    // 17 is in the answer (a replay after a reload); 18 was published after the server read it.
    broadcast(17, 'notification');
    broadcast(18, 'notification');
    release();
    await loading;
    expect(counts()).toEqual({ notificationsUnread: 6, updatesUnread: 2, sharedNew: 1 });
    expect(useBadges.getState().through).toEqual({ notificationsUnread: 18, updatesUnread: 17 });
    // A later answer applies as it is: nothing was counted above its number.
    answer({ notifications: 6, updates: 2, shared: 1, broadcast_seq: 18 }).release();
    await refreshBadges();
    expect(counts()).toEqual({ notificationsUnread: 6, updatesUnread: 2, sharedNew: 1 });
  });

  it('keeps a badge message over a GET /badges answer read before it', async () => {
    const { broadcast, badge } = feed();
    const { release } = answer({ notifications: 5, updates: 2, shared: 1, broadcast_seq: 17 });
    const loading = refreshBadges();
    broadcast(18, 'notification');
    // The user read some meanwhile: an absolute count newer than the answer.
    badge({ name: 'notifications', count: 1, through: 18 });
    release();
    await loading;
    expect(counts()).toEqual({ notificationsUnread: 1, updatesUnread: 2, sharedNew: 1 });
    expect(useBadges.getState().through).toEqual({ notificationsUnread: 18, updatesUnread: 17 });
  });

  it('never lowers through with an answer older than a badge message', async () => {
    const { broadcast, badge } = feed();
    badge({ name: 'notifications', count: 2, through: 20 });
    answer({ notifications: 2, updates: 0, shared: 0, broadcast_seq: 15 }).release();
    await refreshBadges();
    expect(useBadges.getState().through).toEqual({ notificationsUnread: 20, updatesUnread: 15 });
    broadcast(19, 'notification');
    expect(counts().notificationsUnread).toBe(2);
  });

  it('keeps through on an answer without broadcast_seq (older server)', async () => {
    const { broadcast } = feed();
    broadcast(9, 'app_update');
    answer({ notifications: 4, updates: 3, shared: 0 }).release();
    await refreshBadges();
    expect(counts()).toEqual({ notificationsUnread: 4, updatesUnread: 3, sharedNew: 0 });
    expect(useBadges.getState().through).toEqual({ notificationsUnread: 0, updatesUnread: 9 });
  });

  it('resets the broadcast numbers with the counts', () => {
    const { broadcast } = feed();
    broadcast(9, 'notification');
    useBadges.getState().reset();
    expect(useBadges.getState().through).toEqual({ notificationsUnread: 0, updatesUnread: 0 });
    broadcast(1, 'notification');
    expect(counts().notificationsUnread).toBe(1);
  });
});
