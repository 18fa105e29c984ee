import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
import { CLOSE, parseServerMessage, type ClientMessage, type ServerMessage } from './protocol';
import { useRealtime, type RealtimeStatus } from './store';

/** The part of the browser's `WebSocket` the client uses (tests pass a fake). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** Where the client resumes from, kept per tab. */
export interface Resume {
  /** The user's feed. */
  seq: number;
  /** The broadcast stream; absent before the first `ready` that gave it (or from an older server). */
  broadcastSeq?: number;
  epoch: string;
}

export interface ResumeStore {
  load(): Resume | null;
  save(resume: Resume): void;
  clear(): void;
}

/** Network and visibility signals (the window and document in the app). */
export interface Environment {
  isOnline(): boolean;
  isVisible(): boolean;
  /** Subscribes to `online`, `offline` and `visibilitychange`; returns the unsubscribe. */
  listen(handlers: { online(): void; offline(): void; visible(): void }): () => void;
}

export interface FeedMessage {
  seq: number;
  kind: string;
  payload: unknown;
  at: number;
}

export interface RealtimeOptions {
  url: string;
  /** The current session token (it changes when the API hands out a new one). */
  token: () => string | null;
  createSocket: (url: string) => SocketLike;
  resume: ResumeStore;
  environment: Environment;
  onMessage: (message: FeedMessage) => void;
  /** A message of the stream shared by every user (`seq` numbers that stream). */
  onBroadcast: (message: FeedMessage) => void;
  /** The server cannot replay what was missed: reload every list. */
  onReload: () => void;
  /** The session is over (close 4401 with the current token). */
  onUnauthorized: () => void;
  backoff?: BackoffOptions;
  random?: () => number;
  /** Silence after which the connection is taken as dead (the server pings every 25 s). */
  heartbeatTimeoutMs?: number;
  /** How long opening and authenticating may take. */
  connectTimeoutMs?: number;
}

const OPEN = 1;

/**
 * One socket for the whole app: authenticates with its first message, resumes
 * from the last numbers of the user's feed and of the broadcast stream, answers
 * pings, and reconnects with exponential backoff and jitter; immediately when
 * the network returns or the tab becomes visible again.
 */
export class RealtimeClient {
  private socket: SocketLike | null = null;
  private started = false;
  private sentToken: string | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private lastHeard = 0;
  private unlisten: (() => void) | null = null;
  private resume: Resume | null;

  constructor(private readonly options: RealtimeOptions) {
    this.resume = options.resume.load();
    if (this.resume) this.publish(this.resume);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.unlisten = this.options.environment.listen({
      online: () => this.onOnline(),
      offline: () => this.onOffline(),
      visible: () => this.onVisible(),
    });
    this.connect();
  }

  /** Closes the socket for good (logout). `forget` also drops the resume point. */
  stop(forget = false): void {
    this.started = false;
    this.unlisten?.();
    this.unlisten = null;
    this.clearTimers();
    this.dropSocket(CLOSE.normal, 'Signed out');
    if (forget) {
      this.options.resume.clear();
      this.resume = null;
      useRealtime.getState().reset();
    } else {
      this.setStatus('idle');
    }
  }

  private setStatus(status: RealtimeStatus): void {
    if (useRealtime.getState().status !== status) useRealtime.setState({ status });
  }

  private clearTimers(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    if (this.watchdog !== null) clearTimeout(this.watchdog);
    this.retryTimer = null;
    this.watchdog = null;
  }

  /** Forgets the current socket without waiting for its close event. */
  private dropSocket(code?: number, reason?: string): void {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
    try {
      socket.close(code, reason);
    } catch {
      /* already closed */
    }
  }

  private connect(): void {
    if (!this.started) return;
    this.clearTimers();
    this.dropSocket();
    if (!this.options.environment.isOnline()) {
      this.setStatus('offline');
      return;
    }
    const token = this.options.token();
    if (!token) {
      // Logged in without a token yet (restoring): try again shortly.
      this.scheduleReconnect();
      return;
    }
    this.setStatus('connecting');
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(this.options.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.sentToken = token;
    this.armWatchdog(this.options.connectTimeoutMs ?? 15_000);
    socket.onopen = () => {
      const auth: ClientMessage = { type: 'auth', token };
      if (this.resume) {
        auth.last_seq = this.resume.seq;
        // Unknown before the first ready that gave it: the server then replays no broadcasts.
        if (this.resume.broadcastSeq !== undefined) auth.last_broadcast_seq = this.resume.broadcastSeq;
        auth.epoch = this.resume.epoch;
      }
      this.send(auth);
    };
    socket.onmessage = (event) => this.onFrame(event.data as unknown);
    socket.onclose = (event) => this.onClose(event.code);
    socket.onerror = () => {
      /* a close event follows */
    };
  }

  private send(message: ClientMessage): void {
    if (this.socket && this.socket.readyState === OPEN) this.socket.send(JSON.stringify(message));
  }

  /** Restarts the silence timer; when it fires the socket is replaced. */
  private armWatchdog(ms: number): void {
    if (this.watchdog !== null) clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      this.dropSocket();
      this.scheduleReconnect();
    }, ms);
  }

  private onFrame(data: unknown): void {
    this.lastHeard = Date.now();
    const message = parseServerMessage(data);
    if (!message) return;
    this.armWatchdog(this.options.heartbeatTimeoutMs ?? 60_000);
    this.handle(message);
  }

  private handle(message: ServerMessage): void {
    switch (message.type) {
      case 'ping': {
        this.send({ type: 'pong' });
        // A token replaced since we authenticated keeps the socket alive past the old expiry.
        const token = this.options.token();
        if (token && token !== this.sentToken) {
          this.sentToken = token;
          this.send({ type: 'auth', token });
        }
        return;
      }
      case 'ready':
        // Without broadcast_seq (older server) there is no broadcast stream to resume.
        this.remember(
          message.broadcast_seq === undefined
            ? { seq: message.seq, epoch: message.epoch }
            : { seq: message.seq, broadcastSeq: message.broadcast_seq, epoch: message.epoch },
        );
        useRealtime.setState({ attempts: 0 });
        this.setStatus('open');
        return;
      case 'reload':
        this.options.onReload();
        return;
      case 'message':
        this.deliver(message, 'seq', this.options.onMessage);
        return;
      case 'broadcast':
        // Numbered apart from the user's feed: deduplicated against its own last number.
        this.deliver(message, 'broadcastSeq', this.options.onBroadcast);
        return;
    }
  }

  /**
   * Hands a feed entry on unless already seen in its stream (replayed again after a reconnect
   * race), remembering its number as the stream's resume point.
   */
  private deliver(message: FeedMessage, stream: 'seq' | 'broadcastSeq', handler: (message: FeedMessage) => void): void {
    const last = this.resume?.[stream] ?? null;
    if (last !== null && message.seq <= last) return;
    if (this.resume) this.remember({ ...this.resume, [stream]: message.seq });
    handler({ seq: message.seq, kind: message.kind, payload: message.payload, at: message.at });
  }

  private remember(resume: Resume): void {
    this.resume = resume;
    this.options.resume.save(resume);
    this.publish(resume);
  }

  private publish(resume: Resume): void {
    useRealtime.setState({ lastSeq: resume.seq, lastBroadcastSeq: resume.broadcastSeq ?? null, epoch: resume.epoch });
  }

  private onClose(code: number): void {
    this.socket = null;
    this.clearTimers();
    if (!this.started) return;
    if (code === CLOSE.unauthorized) {
      const token = this.options.token();
      if (token && token !== this.sentToken) {
        // The app got a new token meanwhile: this close was about the old one.
        this.connect();
        return;
      }
      this.stop();
      this.options.onUnauthorized();
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (!this.started) return;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    const attempts = useRealtime.getState().attempts;
    const delay = backoffDelay(attempts, this.options.backoff ?? DEFAULT_BACKOFF, this.options.random);
    useRealtime.setState({ attempts: attempts + 1 });
    this.setStatus(this.options.environment.isOnline() ? 'waiting' : 'offline');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  private onOnline(): void {
    if (!this.started || this.socket) return;
    useRealtime.setState({ attempts: 0 });
    this.connect();
  }

  private onOffline(): void {
    if (!this.started) return;
    // The socket cannot survive; wait for the network instead of retrying blindly.
    this.clearTimers();
    this.dropSocket();
    this.setStatus('offline');
  }

  private onVisible(): void {
    if (!this.started) return;
    const silentFor = Date.now() - this.lastHeard;
    const heartbeat = this.options.heartbeatTimeoutMs ?? 60_000;
    // Background tabs throttle timers: check at once instead of waiting for the next retry.
    if (!this.socket || (useRealtime.getState().status === 'open' && silentFor > heartbeat)) {
      useRealtime.setState({ attempts: 0 });
      this.connect();
    }
  }
}
