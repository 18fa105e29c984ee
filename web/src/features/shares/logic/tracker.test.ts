import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngagementTracker, newViewId, REPORT_EVERY_MS, type BeaconBody, type TrackerEnvironment } from './tracker';

/** A tracker on fake timers, with the tab's visibility under the test's control. */
function setup() {
  const sent: BeaconBody[] = [];
  let visible = true;
  const env: TrackerEnvironment = {
    now: () => Date.now(),
    isVisible: () => visible,
    send: (body) => sent.push(body),
    setInterval: (run, ms) => setInterval(run, ms),
    clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
  };
  const tracker = new EngagementTracker('view-1234567890abcdef', env);
  return {
    tracker,
    sent,
    hide: () => {
      visible = false;
      tracker.visibilityChanged();
    },
    show: () => {
      visible = true;
      tracker.visibilityChanged();
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-03-01T09:00:00Z'));
});

afterEach(() => {
  vi.useRealTimers();
});

describe('EngagementTracker', () => {
  it('reports the first page at once, then the dwell every 5 s while it changes', () => {
    const { tracker, sent } = setup();
    tracker.start();
    tracker.showPage(1);
    expect(sent).toEqual([{ view: 'view-1234567890abcdef', seq: 1, pages: [{ page: 1, seconds: 0 }] }]);
    vi.advanceTimersByTime(REPORT_EVERY_MS);
    expect(sent[1]).toEqual({ view: 'view-1234567890abcdef', seq: 2, pages: [{ page: 1, seconds: 5 }] });
  });

  it('splits the dwell between pages as the reader scrolls, as deltas since the last report', () => {
    const { tracker, sent } = setup();
    tracker.start();
    tracker.showPage(1);
    vi.advanceTimersByTime(2000);
    tracker.showPage(2);
    vi.advanceTimersByTime(3000);
    // The 5 s tick: 2 s on page 1, 3 s on page 2.
    expect(sent[1]?.pages).toEqual([
      { page: 1, seconds: 2 },
      { page: 2, seconds: 3 },
    ]);
    vi.advanceTimersByTime(5000);
    expect(sent[2]?.pages).toEqual([{ page: 2, seconds: 5 }]);
    expect(sent.map((b) => b.seq)).toEqual([1, 2, 3]);
  });

  it('keeps the part of a second for the next report and reports a newly seen page even under a second', () => {
    const { tracker, sent } = setup();
    tracker.start();
    tracker.showPage(1);
    vi.advanceTimersByTime(4600);
    tracker.showPage(2);
    vi.advanceTimersByTime(400);
    expect(sent[1]?.pages).toEqual([
      { page: 1, seconds: 4 },
      { page: 2, seconds: 0 },
    ]);
    vi.advanceTimersByTime(5000);
    // Page 1's 0.6 s are still pending (no whole second): page 2's 5.4 s are reported as 5.
    expect(sent[2]?.pages).toEqual([{ page: 2, seconds: 5 }]);
  });

  it('counts no time while the tab is hidden, and reports when it is hidden', () => {
    const { tracker, sent, hide, show } = setup();
    tracker.start();
    tracker.showPage(3);
    vi.advanceTimersByTime(3000);
    hide();
    expect(sent.at(-1)?.pages).toEqual([{ page: 3, seconds: 3 }]);
    const before = sent.length;
    vi.advanceTimersByTime(60_000);
    expect(sent.length).toBe(before);
    // Shown again at 63 s: the next tick (65 s) counts the 2 s since, not the minute hidden.
    show();
    vi.advanceTimersByTime(2000);
    expect(sent.at(-1)?.pages).toEqual([{ page: 3, seconds: 2 }]);
    vi.advanceTimersByTime(5000);
    expect(sent.at(-1)?.pages).toEqual([{ page: 3, seconds: 5 }]);
  });

  it('sends nothing when nothing changed', () => {
    const { tracker, sent } = setup();
    tracker.start();
    vi.advanceTimersByTime(30_000);
    expect(sent).toEqual([]);
    tracker.showPage(1);
    tracker.showPage(null);
    const after = sent.length;
    vi.advanceTimersByTime(30_000);
    expect(sent.length).toBe(after);
  });

  it('reports what is left when the page goes away, and nothing after it stopped', () => {
    const { tracker, sent } = setup();
    tracker.start();
    tracker.showPage(1);
    vi.advanceTimersByTime(2500);
    tracker.leaving();
    expect(sent.at(-1)?.pages).toEqual([{ page: 1, seconds: 2 }]);
    vi.advanceTimersByTime(1500);
    tracker.stop();
    expect(sent.at(-1)?.pages).toEqual([{ page: 1, seconds: 2 }]);
    const count = sent.length;
    tracker.showPage(2);
    vi.advanceTimersByTime(20_000);
    expect(sent.length).toBe(count);
  });

  it('keeps each entry within 3600 s and each report within 50 pages', () => {
    const { tracker, sent } = setup();
    tracker.showPage(1);
    // No timer started: the reader stays on page 1 for two hours, then the report goes.
    vi.advanceTimersByTime(2 * 3600 * 1000 + 10_000);
    tracker.flush();
    expect(sent.at(-1)?.pages).toEqual([{ page: 1, seconds: 3600 }]);
    tracker.flush();
    expect(sent.at(-1)?.pages).toEqual([{ page: 1, seconds: 3600 }]);
    tracker.flush();
    expect(sent.at(-1)?.pages).toEqual([{ page: 1, seconds: 10 }]);

    const many = setup();
    for (let page = 1; page <= 120; page += 1) many.tracker.showPage(page);
    many.tracker.flush();
    const sizes = many.sent.slice(1).map((b) => b.pages.length);
    expect(sizes).toEqual([50, 50, 19]);
    expect(new Set(many.sent.map((b) => b.seq)).size).toBe(many.sent.length);
  });
});

describe('newViewId', () => {
  it('makes 32 URL-safe characters from random bytes', () => {
    const id = newViewId((bytes) => bytes.map((_, i) => i * 8));
    expect(id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(newViewId()).not.toBe(newViewId());
  });
});
