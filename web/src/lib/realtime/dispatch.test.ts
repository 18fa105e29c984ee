import { describe, expect, it, vi } from 'vitest';
import {
  APP_UPDATE_TOAST,
  contentKeys,
  createDispatcher,
  libraryWithdrawal,
  LIVE_QUERY_KEYS,
  notificationArrival,
  shareOpenedToast,
} from './dispatch';

const badgeSetters = () => ({
  setNotificationsUnread: vi.fn(),
  setUpdatesUnread: vi.fn(),
  setSharedNew: vi.fn(),
  countBroadcast: vi.fn(),
});

function setup() {
  const invalidateQueries = vi.fn(() => Promise.resolve());
  const setters = badgeSetters();
  const notify = vi.fn();
  const arrived = vi.fn();
  const documentsChanged = vi.fn();
  const libraryWithdrawn = vi.fn();
  const dispatcher = createDispatcher({
    queryClient: { invalidateQueries },
    badges: () => setters,
    notify,
    notificationArrived: arrived,
    documentsChanged,
    libraryWithdrawn,
  });
  const send = (kind: string, payload: unknown) => dispatcher.message({ seq: 1, kind, payload, at: 0 });
  const keys = () => invalidateQueries.mock.calls.map((call: unknown[]) => (call[0] as { queryKey: unknown }).queryKey);
  /** Every effect but the counts, to compare a broadcast with a message. */
  const effects = () => ({
    keys: keys(),
    notify: notify.mock.calls,
    arrived: arrived.mock.calls,
    documentsChanged: documentsChanged.mock.calls.length,
    libraryWithdrawn: libraryWithdrawn.mock.calls,
  });
  return { dispatcher, send, setters, notify, invalidateQueries, keys, effects };
}

describe('realtime dispatch', () => {
  it('puts badge counts into the badges store', () => {
    const { send, setters } = setup();
    send('badge', { name: 'notifications', count: 3 });
    send('badge', { name: 'updates', count: 1 });
    send('badge', { name: 'shared', count: 2 });
    send('badge', { name: 'shared', count: 'x' });
    send('badge', { name: 'other', count: 9 });
    expect(setters.setNotificationsUnread).toHaveBeenCalledWith(3);
    expect(setters.setUpdatesUnread).toHaveBeenCalledWith(1);
    expect(setters.setSharedNew).toHaveBeenCalledTimes(1);
    expect(setters.setSharedNew).toHaveBeenCalledWith(2);
  });

  it('passes on the broadcast number a badge count includes, when there is one', () => {
    const { send, setters } = setup();
    send('badge', { name: 'notifications', count: 3, through: 17 });
    send('badge', { name: 'updates', count: 1, through: 12 });
    send('badge', { name: 'shared', count: 2, through: 5 });
    send('badge', { name: 'notifications', count: 4, through: 'x' });
    expect(setters.setNotificationsUnread.mock.calls).toEqual([[3, 17], [4]]);
    expect(setters.setUpdatesUnread.mock.calls).toEqual([[1, 12]]);
    expect(setters.setSharedNew.mock.calls).toEqual([[2]]);
  });

  it('refreshes the documents lists on shared arrivals and changes', () => {
    const { send, keys, notify } = setup();
    send('shared_arrival', { item: { id: 1 } });
    expect(keys()).toEqual([['documents'], ['home', 'documents']]);
    send('shared_change', { folder_id: 4, change: 'renamed', item_id: 7, item: null });
    expect(keys()).toHaveLength(4);
    expect(notify).not.toHaveBeenCalled();
  });

  it('refreshes notifications, and app updates with a toast', () => {
    const { send, keys, notify } = setup();
    send('notification', { notification: { id: 1 } });
    expect(keys()).toEqual([['whats-new', 'notifications']]);
    send('app_update', { update: { id: 2, name: 'Version 4.2' } });
    expect(keys().slice(1)).toEqual([['whats-new', 'updates']]);
    expect(notify).toHaveBeenCalledWith(`${APP_UPDATE_TOAST}: Version 4.2`);
    send('app_update', {});
    expect(notify).toHaveBeenLastCalledWith(APP_UPDATE_TOAST);
  });

  it('announces an arrived notification with its id and title', () => {
    const arrived = vi.fn();
    const dispatcher = createDispatcher({
      queryClient: { invalidateQueries: vi.fn(() => Promise.resolve()) },
      badges: badgeSetters,
      notify: vi.fn(),
      notificationArrived: arrived,
    });
    dispatcher.message({
      seq: 1,
      kind: 'notification',
      payload: { notification: { id: 7, title: ' Q4 price list ' } },
      at: 0,
    });
    expect(arrived).toHaveBeenCalledWith({ id: 7, title: 'Q4 price list' });
    // Without a readable notification there is nothing to announce.
    dispatcher.message({ seq: 2, kind: 'notification', payload: { notification: { id: 8 } }, at: 0 });
    expect(arrived).toHaveBeenCalledTimes(1);
    expect(notificationArrival({ notification: { id: '9', title: 'x' } })).toBeNull();
  });

  it('invalidates everything on reload and ignores unknown kinds', () => {
    const { dispatcher, send, invalidateQueries, setters, notify } = setup();
    send('something_new', { x: 1 });
    expect(invalidateQueries).not.toHaveBeenCalled();
    expect(setters.setSharedNew).not.toHaveBeenCalled();
    expect(notify).not.toHaveBeenCalled();
    dispatcher.reload();
    expect(invalidateQueries).toHaveBeenCalledWith();
  });
});

describe('tracked external shares', () => {
  it('refreshes the shares screens and toasts the first open of a link only', () => {
    const { send, keys, notify } = setup();
    send('share_opened', {
      share: 's1',
      item: 'i1',
      title: 'Surgical technique',
      recipient: 'dr.b@clinic.example',
      at: 1,
      first: true,
    });
    expect(keys()).toEqual([['shares']]);
    expect(notify).toHaveBeenCalledWith('dr.b@clinic.example opened "Surgical technique"');
    send('share_opened', {
      share: 's1',
      item: 'i1',
      title: 'Surgical technique',
      recipient: 'dr.b@clinic.example',
      at: 2,
      first: false,
    });
    expect(keys()).toEqual([['shares'], ['shares']]);
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it('refreshes on engagement without a toast, and ignores an unreadable open', () => {
    const { send, keys, notify } = setup();
    send('share_engagement', { share: 's1', item: 'i1' });
    expect(keys()).toEqual([['shares']]);
    send('share_opened', { first: true });
    expect(notify).not.toHaveBeenCalled();
    expect(shareOpenedToast({ first: true, recipient: 'a@b.example', title: '' })).toBe(
      'a@b.example opened "your document"',
    );
  });
});

describe('content lifecycle', () => {
  it('drops a withdrawn library document from every list and purges it from the device', () => {
    const libraryWithdrawn = vi.fn();
    const invalidateQueries = vi.fn(() => Promise.resolve());
    const dispatcher = createDispatcher({
      queryClient: { invalidateQueries },
      badges: badgeSetters,
      notify: vi.fn(),
      libraryWithdrawn,
    });
    dispatcher.message({
      seq: 1,
      kind: 'library_withdrawn',
      payload: {
        id: 100001,
        state: 'withdrawn',
        at: 5,
        reason: 'Wrong dosage table',
        replacement: { id: 100002, title: 'Brochure v2', url: '/api/library/100002/file' },
        items: ['it-1', 7],
      },
      at: 0,
    });
    expect(libraryWithdrawn).toHaveBeenCalledWith({
      id: 100001,
      state: 'withdrawn',
      at: 5,
      reason: 'Wrong dosage table',
      replacement: { id: 100002, title: 'Brochure v2', url: '/api/library/100002/file' },
      items: ['it-1'],
    });
    const keys = invalidateQueries.mock.calls.map((call: unknown[]) => (call[0] as { queryKey: unknown }).queryKey);
    for (const key of LIVE_QUERY_KEYS.library) expect(keys).toContainEqual(key);
    // An unreadable message does nothing.
    dispatcher.message({ seq: 2, kind: 'library_withdrawn', payload: { id: 'x' }, at: 0 });
    expect(libraryWithdrawn).toHaveBeenCalledTimes(1);
  });

  it('reads a withdrawal with its dates as text and without a replacement', () => {
    expect(libraryWithdrawal({ id: '7', state: 'expired', at: '1970-01-01T00:00:01Z', replacement: null })).toEqual({
      id: 7,
      state: 'expired',
      at: 1000,
      reason: '',
      replacement: null,
      items: [],
    });
    expect(libraryWithdrawal(null)).toBeNull();
  });

  it('refreshes the queries of the kind of content that changed, and the console', () => {
    const { send, keys } = setup();
    send('content_changed', { kind: 'news', ids: [3] });
    expect(keys()).toEqual([...LIVE_QUERY_KEYS.news, ['console']]);
    expect(contentKeys('courses')).toEqual([['learn'], ['search']]);
    expect(contentKeys('library')).toEqual(LIVE_QUERY_KEYS.library);
    // An unknown kind (or an inherited name) refreshes everything published.
    expect(contentKeys('toString')).toContainEqual(['news']);
    expect(contentKeys(undefined)).toContainEqual(['products']);
  });
});

describe('broadcasts', () => {
  const cases: [kind: string, payload: unknown][] = [
    ['notification', { notification: { id: 7, title: 'Q4 price list' } }],
    ['app_update', { update: { id: 2, name: 'Version 4.2' } }],
    ['content_changed', { kind: 'news', ids: [3] }],
    ['content_changed', { kind: 'something', ids: [] }],
    ['shared_arrival', { item: { id: 1 } }],
    ['library_withdrawn', { id: 5, state: 'expired', items: ['a'] }],
    ['something_new', { x: 1 }],
  ];

  it.each(cases)('do what a %s message does (case %#)', (kind, payload) => {
    const viaMessage = setup();
    viaMessage.dispatcher.message({ seq: 30, kind, payload, at: 0 });
    const viaBroadcast = setup();
    viaBroadcast.dispatcher.broadcast({ seq: 3, kind, payload, at: 0 });
    expect(viaBroadcast.effects()).toEqual(viaMessage.effects());
    if (kind !== 'something_new') expect(viaBroadcast.keys().length).toBeGreaterThan(0);
  });

  it('count a notification or an app update by its broadcast number, and nothing else', () => {
    const { dispatcher, setters, effects } = setup();
    dispatcher.broadcast({ seq: 17, kind: 'notification', payload: { notification: { id: 1, title: 'A' } }, at: 0 });
    dispatcher.broadcast({ seq: 18, kind: 'app_update', payload: { update: { name: 'B' } }, at: 0 });
    dispatcher.broadcast({ seq: 19, kind: 'content_changed', payload: { kind: 'news', ids: [1] }, at: 0 });
    dispatcher.broadcast({ seq: 20, kind: 'something_new', payload: {}, at: 0 });
    expect(setters.countBroadcast.mock.calls).toEqual([
      ['notificationsUnread', 17],
      ['updatesUnread', 18],
    ]);
    expect(effects().arrived).toEqual([[{ id: 1, title: 'A' }]]);
    // The user's own messages are counted by their `badge` messages, never added up.
    dispatcher.message({ seq: 21, kind: 'notification', payload: { notification: { id: 2, title: 'C' } }, at: 0 });
    dispatcher.message({ seq: 22, kind: 'app_update', payload: {}, at: 0 });
    expect(setters.countBroadcast).toHaveBeenCalledTimes(2);
    expect(setters.setNotificationsUnread).not.toHaveBeenCalled();
    expect(setters.setUpdatesUnread).not.toHaveBeenCalled();
  });
});
