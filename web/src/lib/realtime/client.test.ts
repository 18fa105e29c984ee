import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStore } from '../storage';
import {
  RealtimeClient,
  type Environment,
  type FeedMessage,
  type Resume,
  type ResumeStore,
  type SocketLike,
} from './client';
import { resumeStoreFor } from './index';
import { useRealtime } from './store';

class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  sent: unknown[] = [];
  closedWith: [number | undefined, string | undefined] | null = null;

  constructor(readonly url: string) {}

  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number, reason?: string) {
    this.closedWith = [code, reason];
    this.readyState = 3;
  }
  // What the server does:
  open() {
    this.readyState = 1;
    this.onopen?.({} as Event);
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) } as MessageEvent);
  }
  serverClose(code: number, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason } as CloseEvent);
  }
}

function memoryResume(initial: Resume | null = null) {
  let value = initial;
  return {
    load: () => value,
    save: (r: Resume) => void (value = r),
    clear: () => void (value = null),
    get: () => value,
  };
}

function fakeEnvironment() {
  let online = true;
  let handlers: Parameters<Environment['listen']>[0] | null = null;
  const env: Environment = {
    isOnline: () => online,
    isVisible: () => true,
    listen(h) {
      handlers = h;
      return () => void (handlers = null);
    },
  };
  return {
    env,
    goOffline() {
      online = false;
      handlers?.offline();
    },
    goOnline() {
      online = true;
      handlers?.online();
    },
    becomeVisible() {
      handlers?.visible();
    },
    listening: () => handlers !== null,
  };
}

function setup(options: { resume?: Resume | null; store?: ResumeStore; token?: string } = {}) {
  const sockets: FakeSocket[] = [];
  let token: string | null = options.token ?? 'token-1';
  const resume = memoryResume(options.resume ?? null);
  const environment = fakeEnvironment();
  const messages: FeedMessage[] = [];
  const broadcasts: FeedMessage[] = [];
  /** Both streams in the order they were delivered. */
  const delivered: [stream: 'message' | 'broadcast', seq: number][] = [];
  const onReload = vi.fn();
  const onUnauthorized = vi.fn();
  const client = new RealtimeClient({
    url: 'ws://test/api/ws',
    token: () => token,
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    resume: options.store ?? resume,
    environment: environment.env,
    onMessage: (m) => {
      messages.push(m);
      delivered.push(['message', m.seq]);
    },
    onBroadcast: (m) => {
      broadcasts.push(m);
      delivered.push(['broadcast', m.seq]);
    },
    onReload,
    onUnauthorized,
    random: () => 0,
  });
  const last = () => {
    const socket = sockets[sockets.length - 1];
    if (!socket) throw new Error('no socket');
    return socket;
  };
  return {
    client,
    sockets,
    last,
    resume,
    environment,
    messages,
    broadcasts,
    delivered,
    onReload,
    onUnauthorized,
    setToken: (t: string | null) => void (token = t),
  };
}

/** Opens the latest socket and answers its auth with `ready`. */
function readyAt(t: ReturnType<typeof setup>, seq: number, epoch = 'e1') {
  t.last().open();
  t.last().receive({ type: 'ready', seq, epoch });
}

const message = (seq: number, kind = 'badge', payload: unknown = { name: 'shared', count: seq }) => ({
  type: 'message',
  seq,
  kind,
  payload,
  at: 1,
});

const broadcast = (seq: number, kind = 'content_changed', payload: unknown = { kind: 'news', ids: [seq] }) => ({
  type: 'broadcast',
  seq,
  kind,
  payload,
  at: 1,
});

/** Drops the latest socket and opens the next one (after the first backoff step). */
function reconnect(t: ReturnType<typeof setup>) {
  t.last().serverClose(1006);
  vi.advanceTimersByTime(250);
  t.last().open();
}

beforeEach(() => {
  vi.useFakeTimers();
  useRealtime.getState().reset();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('RealtimeClient', () => {
  it('authenticates with its first message and goes live on ready', () => {
    const t = setup();
    t.client.start();
    expect(useRealtime.getState().status).toBe('connecting');
    expect(t.sockets).toHaveLength(1);
    t.last().open();
    expect(t.last().sent).toEqual([{ type: 'auth', token: 'token-1' }]);
    t.last().receive({ type: 'ready', seq: 4, epoch: 'e1' });
    expect(useRealtime.getState()).toMatchObject({ status: 'open', lastSeq: 4, epoch: 'e1', attempts: 0 });
    expect(t.resume.get()).toEqual({ seq: 4, epoch: 'e1' });
  });

  it('dispatches messages once, in order, and remembers the last number', () => {
    const t = setup();
    t.client.start();
    readyAt(t, 0);
    t.last().receive(message(1));
    t.last().receive(message(2, 'shared_arrival', { item: { id: 9 } }));
    t.last().receive(message(2));
    t.last().receive(message(1));
    expect(t.messages.map((m) => [m.seq, m.kind])).toEqual([
      [1, 'badge'],
      [2, 'shared_arrival'],
    ]);
    expect(t.resume.get()).toEqual({ seq: 2, epoch: 'e1' });
    expect(useRealtime.getState().lastSeq).toBe(2);
  });

  it('resumes from the last number after a drop, with backoff', () => {
    const t = setup();
    t.client.start();
    readyAt(t, 3);
    t.last().receive(message(4));
    t.last().serverClose(1006);
    expect(useRealtime.getState().status).toBe('waiting');
    vi.advanceTimersByTime(249);
    expect(t.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(t.sockets).toHaveLength(2);
    t.last().open();
    expect(t.last().sent[0]).toEqual({ type: 'auth', token: 'token-1', last_seq: 4, epoch: 'e1' });
    // The replay, then ready.
    t.last().receive(message(5));
    t.last().receive(message(6));
    t.last().receive({ type: 'ready', seq: 6, epoch: 'e1' });
    expect(t.messages.map((m) => m.seq)).toEqual([4, 5, 6]);
  });

  it('waits longer after each failed attempt and starts over after ready', () => {
    const t = setup();
    t.client.start();
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      const before = t.sockets.length;
      t.last().serverClose(1006);
      let waited = 0;
      while (t.sockets.length === before) {
        vi.advanceTimersByTime(50);
        waited += 50;
      }
      delays.push(waited);
    }
    expect(delays).toEqual([250, 500, 1000, 2000]);
    readyAt(t, 0);
    expect(useRealtime.getState().attempts).toBe(0);
    t.last().serverClose(1013, 'slow');
    vi.advanceTimersByTime(250);
    expect(t.sockets).toHaveLength(6);
  });

  it('starts from a resume point kept from before a page reload', () => {
    const t = setup({ resume: { seq: 41, epoch: 'e7' } });
    expect(useRealtime.getState().lastSeq).toBe(41);
    t.client.start();
    t.last().open();
    expect(t.last().sent[0]).toEqual({ type: 'auth', token: 'token-1', last_seq: 41, epoch: 'e7' });
  });

  it('reloads the lists when the server cannot replay', () => {
    const t = setup({ resume: { seq: 2, epoch: 'old' } });
    t.client.start();
    t.last().open();
    t.last().receive({ type: 'reload' });
    t.last().receive({ type: 'ready', seq: 90, epoch: 'new' });
    expect(t.onReload).toHaveBeenCalledTimes(1);
    expect(t.resume.get()).toEqual({ seq: 90, epoch: 'new' });
    t.last().receive(message(91));
    expect(t.messages.map((m) => m.seq)).toEqual([91]);
  });

  it('answers pings, and sends a replaced token so the socket outlives the old one', () => {
    const t = setup();
    t.client.start();
    readyAt(t, 0);
    t.last().receive({ type: 'ping' });
    expect(t.last().sent.slice(1)).toEqual([{ type: 'pong' }]);
    t.setToken('token-2');
    t.last().receive({ type: 'ping' });
    expect(t.last().sent.slice(2)).toEqual([{ type: 'pong' }, { type: 'auth', token: 'token-2' }]);
  });

  it('logs out on 4401 with the current token, without reconnecting', () => {
    const t = setup();
    t.client.start();
    readyAt(t, 0);
    t.last().serverClose(4401, 'Your session has expired. Please sign in again.');
    expect(t.onUnauthorized).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(t.sockets).toHaveLength(1);
    expect(useRealtime.getState().status).toBe('idle');
  });

  it('reconnects at once on 4401 when the app already holds a newer token', () => {
    const t = setup();
    t.client.start();
    readyAt(t, 0);
    t.setToken('token-2');
    t.last().serverClose(4401);
    expect(t.onUnauthorized).not.toHaveBeenCalled();
    expect(t.sockets).toHaveLength(2);
    t.last().open();
    expect(t.last().sent[0]).toMatchObject({ type: 'auth', token: 'token-2' });
  });

  it('waits for the network while offline and reconnects as soon as it is back', () => {
    const t = setup();
    t.client.start();
    readyAt(t, 5);
    t.environment.goOffline();
    expect(useRealtime.getState().status).toBe('offline');
    expect(t.sockets[0]?.closedWith).not.toBeNull();
    vi.advanceTimersByTime(120_000);
    expect(t.sockets).toHaveLength(1);
    t.environment.goOnline();
    expect(t.sockets).toHaveLength(2);
    t.last().open();
    expect(t.last().sent[0]).toMatchObject({ last_seq: 5, epoch: 'e1' });
  });

  it('replaces a silent connection (missed heartbeats) and reconnects when the tab comes back', () => {
    const t = setup();
    t.client.start();
    readyAt(t, 0);
    vi.advanceTimersByTime(59_999);
    expect(t.sockets).toHaveLength(1);
    t.last().receive({ type: 'ping' });
    vi.advanceTimersByTime(59_999);
    expect(t.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(t.sockets[0]?.closedWith).not.toBeNull();
    expect(useRealtime.getState().status).toBe('waiting');
    // Back in the foreground: no waiting for the retry timer.
    t.environment.becomeVisible();
    expect(t.sockets).toHaveLength(2);
  });

  it('gives up a socket that never becomes ready', () => {
    const t = setup();
    t.client.start();
    t.last().open();
    vi.advanceTimersByTime(15_000);
    expect(t.sockets[0]?.closedWith).not.toBeNull();
    vi.advanceTimersByTime(250);
    expect(t.sockets).toHaveLength(2);
  });

  it('closes for good on stop and forgets the resume point on logout', () => {
    const t = setup();
    t.client.start();
    readyAt(t, 8);
    t.client.stop(true);
    expect(t.sockets[0]?.closedWith).toEqual([1000, 'Signed out']);
    expect(t.resume.get()).toBeNull();
    expect(useRealtime.getState()).toMatchObject({ status: 'idle', lastSeq: null });
    expect(t.environment.listening()).toBe(false);
    vi.advanceTimersByTime(120_000);
    expect(t.sockets).toHaveLength(1);
  });

  it('ignores frames it does not understand', () => {
    const t = setup();
    t.client.start();
    readyAt(t, 0);
    t.last().onmessage?.({ data: 'not json' } as MessageEvent);
    t.last().receive({ type: 'future_thing', x: 1 });
    t.last().receive({ type: 'message', kind: 'badge' });
    expect(t.messages).toEqual([]);
    expect(useRealtime.getState().status).toBe('open');
  });
});

describe('RealtimeClient, broadcast stream', () => {
  it('resumes both streams: auth carries last_broadcast_seq after a ready that gave it', () => {
    const t = setup();
    t.client.start();
    t.last().open();
    t.last().receive({ type: 'ready', seq: 4, broadcast_seq: 17, epoch: 'e1' });
    expect(t.resume.get()).toEqual({ seq: 4, broadcastSeq: 17, epoch: 'e1' });
    expect(useRealtime.getState()).toMatchObject({ lastSeq: 4, lastBroadcastSeq: 17, epoch: 'e1' });
    t.last().receive(broadcast(18));
    // A message moves the feed's number and keeps the broadcast one.
    t.last().receive(message(5));
    expect(t.resume.get()).toEqual({ seq: 5, broadcastSeq: 18, epoch: 'e1' });
    reconnect(t);
    expect(t.last().sent[0]).toEqual({
      type: 'auth',
      token: 'token-1',
      last_seq: 5,
      last_broadcast_seq: 18,
      epoch: 'e1',
    });
  });

  it('resumes only the feed from a point saved before the broadcast stream, then both', () => {
    const session = memoryStore({ 'companion.realtime': JSON.stringify({ seq: 41, epoch: 'e7', user: 'u1' }) });
    const store = resumeStoreFor('u1', session);
    expect(store.load()).toEqual({ seq: 41, epoch: 'e7' });
    const t = setup({ store });
    expect(useRealtime.getState()).toMatchObject({ lastSeq: 41, lastBroadcastSeq: null });
    t.client.start();
    t.last().open();
    expect(t.last().sent[0]).toEqual({ type: 'auth', token: 'token-1', last_seq: 41, epoch: 'e7' });
    t.last().receive(message(42));
    t.last().receive({ type: 'ready', seq: 42, broadcast_seq: 9, epoch: 'e7' });
    expect(t.messages.map((m) => m.seq)).toEqual([42]);
    // Kept for the next page load of this tab.
    expect(resumeStoreFor('u1', session).load()).toEqual({ seq: 42, broadcastSeq: 9, epoch: 'e7' });
    reconnect(t);
    expect(t.last().sent[0]).toEqual({
      type: 'auth',
      token: 'token-1',
      last_seq: 42,
      last_broadcast_seq: 9,
      epoch: 'e7',
    });
  });

  it('delivers each broadcast once', () => {
    const t = setup();
    t.client.start();
    t.last().open();
    t.last().receive({ type: 'ready', seq: 0, broadcast_seq: 5, epoch: 'e1' });
    t.last().receive(broadcast(5));
    t.last().receive(broadcast(6));
    t.last().receive(broadcast(7, 'notification', { notification: { id: 1, title: 'Hello' } }));
    t.last().receive(broadcast(6));
    t.last().receive(broadcast(7));
    expect(t.broadcasts.map((m) => [m.seq, m.kind])).toEqual([
      [6, 'content_changed'],
      [7, 'notification'],
    ]);
    expect(t.broadcasts[1]).toEqual({
      seq: 7,
      kind: 'notification',
      payload: { notification: { id: 1, title: 'Hello' } },
      at: 1,
    });
    expect(t.messages).toEqual([]);
    expect(t.resume.get()).toEqual({ seq: 0, broadcastSeq: 7, epoch: 'e1' });
    expect(useRealtime.getState().lastBroadcastSeq).toBe(7);
  });

  it('numbers the two streams apart and keeps their common order', () => {
    const t = setup({ resume: { seq: 40, broadcastSeq: 2, epoch: 'e1' } });
    t.client.start();
    t.last().open();
    expect(t.last().sent[0]).toEqual({
      type: 'auth',
      token: 'token-1',
      last_seq: 40,
      last_broadcast_seq: 2,
      epoch: 'e1',
    });
    // The replay interleaves both streams; a broadcast number below the feed's is no duplicate.
    t.last().receive(message(41));
    t.last().receive(broadcast(3));
    t.last().receive(message(42));
    t.last().receive({ type: 'ready', seq: 42, broadcast_seq: 3, epoch: 'e1' });
    t.last().receive(broadcast(4));
    t.last().receive(message(43));
    // Each stream is deduplicated against its own number only.
    t.last().receive(broadcast(42));
    t.last().receive(message(5));
    t.last().receive(broadcast(4));
    t.last().receive(message(43));
    expect(t.delivered).toEqual([
      ['message', 41],
      ['broadcast', 3],
      ['message', 42],
      ['broadcast', 4],
      ['message', 43],
      ['broadcast', 42],
    ]);
    expect(t.resume.get()).toEqual({ seq: 43, broadcastSeq: 42, epoch: 'e1' });
  });

  it('keeps both numbers through a reload until the following ready replaces them', () => {
    const t = setup({ resume: { seq: 2, broadcastSeq: 5, epoch: 'old' } });
    t.client.start();
    t.last().open();
    t.last().receive({ type: 'reload' });
    expect(t.onReload).toHaveBeenCalledTimes(1);
    expect(t.resume.get()).toEqual({ seq: 2, broadcastSeq: 5, epoch: 'old' });
    // Dropped before the ready: the next attempt asks from the same point.
    reconnect(t);
    expect(t.last().sent[0]).toEqual({
      type: 'auth',
      token: 'token-1',
      last_seq: 2,
      last_broadcast_seq: 5,
      epoch: 'old',
    });
    t.last().receive({ type: 'reload' });
    expect(t.onReload).toHaveBeenCalledTimes(2);
    t.last().receive({ type: 'ready', seq: 90, broadcast_seq: 40, epoch: 'new' });
    expect(t.resume.get()).toEqual({ seq: 90, broadcastSeq: 40, epoch: 'new' });
    t.last().receive(broadcast(40));
    t.last().receive(broadcast(41));
    expect(t.broadcasts.map((m) => m.seq)).toEqual([41]);
  });

  it('works as before with a server without broadcasts (ready without broadcast_seq)', () => {
    const t = setup({ resume: { seq: 3, broadcastSeq: 8, epoch: 'e1' } });
    t.client.start();
    t.last().open();
    t.last().receive({ type: 'ready', seq: 3, epoch: 'e1' });
    // No broadcast stream there: nothing of it is kept or sent.
    expect(t.resume.get()).toStrictEqual({ seq: 3, epoch: 'e1' });
    expect(useRealtime.getState()).toMatchObject({ status: 'open', lastSeq: 3, lastBroadcastSeq: null });
    t.last().receive(message(4));
    expect(t.resume.get()).toStrictEqual({ seq: 4, epoch: 'e1' });
    reconnect(t);
    expect(t.last().sent[0]).toStrictEqual({ type: 'auth', token: 'token-1', last_seq: 4, epoch: 'e1' });
    t.last().receive({ type: 'ready', seq: 4, epoch: 'e1' });
    t.last().receive(message(5));
    expect(t.messages.map((m) => m.seq)).toEqual([4, 5]);
  });

  it('ignores a malformed broadcast and forgets the broadcast number on logout', () => {
    const t = setup();
    t.client.start();
    t.last().open();
    t.last().receive({ type: 'ready', seq: 1, broadcast_seq: 6, epoch: 'e1' });
    t.last().receive({ type: 'broadcast', kind: 'notification', payload: {} });
    t.last().receive({ type: 'broadcast', seq: '7', kind: 'notification', payload: {} });
    expect(t.broadcasts).toEqual([]);
    t.client.stop(true);
    expect(useRealtime.getState()).toMatchObject({ lastSeq: null, lastBroadcastSeq: null });
    expect(t.resume.get()).toBeNull();
  });
});
