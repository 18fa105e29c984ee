import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealtimeClient, type Environment, type FeedMessage, type Resume, type SocketLike } from './client';
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

function setup(options: { resume?: Resume | null; token?: string } = {}) {
  const sockets: FakeSocket[] = [];
  let token: string | null = options.token ?? 'token-1';
  const resume = memoryResume(options.resume ?? null);
  const environment = fakeEnvironment();
  const messages: FeedMessage[] = [];
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
    resume,
    environment: environment.env,
    onMessage: (m) => messages.push(m),
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
