import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useBadges } from '../stores/badges';
import { refreshBadges } from './badges';

function answer(body: unknown) {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const fetchMock = vi.fn<typeof fetch>(async () => {
    await gate;
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { release };
}

describe('refreshBadges', () => {
  beforeEach(() => useBadges.getState().reset());
  afterEach(() => vi.unstubAllGlobals());

  it('loads the three counters', async () => {
    const { release } = answer({ notifications: 2, updates: 1, shared: 3 });
    release();
    await refreshBadges();
    expect(useBadges.getState()).toMatchObject({ notificationsUnread: 2, updatesUnread: 1, sharedNew: 3 });
  });

  it('does not undo a live count that arrived while the request was on its way', async () => {
    const { release } = answer({ notifications: 5, updates: 0, shared: 2 });
    const loading = refreshBadges();
    useBadges.getState().setNotificationsUnread(0);
    release();
    await loading;
    expect(useBadges.getState()).toMatchObject({ notificationsUnread: 0, updatesUnread: 0, sharedNew: 2 });
  });
});
