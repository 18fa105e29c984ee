/**
 * What the recipient's viewer reports to the sender: which pages were read and for how long.
 *
 * Dwell accumulates on the page shown (the most visible one) only while the tab is visible. It is
 * reported as deltas since the previous report, in whole seconds (the remainder is kept for the
 * next one), numbered per page load so that a report sent twice counts once on the server.
 */

export interface PageDwell {
  page: number;
  seconds: number;
}

export interface BeaconBody {
  /** The page load's view id. */
  view: string;
  /** 1, 2, 3... per page load: the server ignores a repeat. */
  seq: number;
  pages: PageDwell[];
}

/** The contract's bounds on one report. */
export const MAX_SECONDS_PER_ENTRY = 3600;
export const MAX_ENTRIES_PER_BEACON = 50;
/** While the tab is visible and something changed, a report this often. */
export const REPORT_EVERY_MS = 5000;

export interface TrackerEnvironment {
  now(): number;
  isVisible(): boolean;
  send(body: BeaconBody): void;
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export class EngagementTracker {
  private readonly env: TrackerEnvironment;
  private readonly view: string;
  private seq = 0;
  /** The page shown now, if any. */
  private current: number | null = null;
  /** Since when the current page has been read and not yet counted (null while hidden). */
  private since: number | null = null;
  /** Milliseconds read per page and not yet reported. */
  private readonly pending = new Map<number, number>();
  /** Pages seen for the first time and not yet reported (reported even with no whole second). */
  private readonly fresh = new Set<number>();
  private readonly seen = new Set<number>();
  private timer: unknown = null;
  private stopped = false;

  constructor(view: string, env: TrackerEnvironment) {
    this.view = view;
    this.env = env;
  }

  /** Starts the periodic reports. */
  start(): void {
    if (this.timer !== null || this.stopped) return;
    this.timer = this.env.setInterval(() => this.flush(), REPORT_EVERY_MS);
  }

  /** Stops for good: what was read so far is reported. */
  stop(): void {
    if (this.stopped) return;
    this.flush();
    this.stopped = true;
    if (this.timer !== null) this.env.clearInterval(this.timer);
    this.timer = null;
  }

  /** The page shown changed (null: none is shown). The very first page is reported at once. */
  showPage(page: number | null): void {
    if (this.stopped || page === this.current) return;
    this.count();
    this.current = page;
    if (page !== null && !this.seen.has(page)) {
      this.seen.add(page);
      this.fresh.add(page);
      if (this.seen.size === 1) this.flush();
    }
  }

  /** The tab was hidden or shown again: hidden time is not reading time, and hiding reports. */
  visibilityChanged(): void {
    if (this.stopped) return;
    this.count();
    if (!this.env.isVisible()) this.flush();
  }

  /** The page is going away (pagehide): report now, the tab may never come back. */
  leaving(): void {
    this.flush();
  }

  /** Adds the time since the last count to the current page, and restarts the clock. */
  private count(): void {
    const now = this.env.now();
    if (this.current !== null && this.since !== null) {
      const spent = Math.max(0, now - this.since);
      if (spent > 0) this.pending.set(this.current, (this.pending.get(this.current) ?? 0) + spent);
    }
    this.since = this.env.isVisible() ? now : null;
  }

  /** Sends what changed since the previous report, if anything did. */
  flush(): void {
    if (this.stopped) return;
    this.count();
    const entries: PageDwell[] = [];
    const pages = new Set<number>([...this.fresh, ...this.pending.keys()]);
    for (const page of [...pages].sort((a, b) => a - b)) {
      const ms = this.pending.get(page) ?? 0;
      const seconds = Math.min(MAX_SECONDS_PER_ENTRY, Math.floor(ms / 1000));
      if (seconds === 0 && !this.fresh.has(page)) continue;
      entries.push({ page, seconds });
      const rest = ms - seconds * 1000;
      if (rest > 0) this.pending.set(page, rest);
      else this.pending.delete(page);
    }
    this.fresh.clear();
    for (let i = 0; i < entries.length; i += MAX_ENTRIES_PER_BEACON) {
      this.seq += 1;
      this.env.send({ view: this.view, seq: this.seq, pages: entries.slice(i, i + MAX_ENTRIES_PER_BEACON) });
    }
  }
}

/** A random id of 32 URL-safe characters for this page load (the server accepts 16 to 64). */
export function newViewId(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const bytes = random(new Uint8Array(32));
  let id = '';
  for (const byte of bytes) id += alphabet[byte & 63];
  return id;
}
