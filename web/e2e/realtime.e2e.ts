/**
 * The realtime channel in the browser against the real backend: one socket per
 * app, first-message authentication, live badges, catching up after being
 * offline, closing on logout. Feed entries are written with the backend's
 * `companion feed push` command (what the projections would write); the
 * server notices them within FEED_POLL_MS (2 s) on SQLite.
 */
import { spawnSync } from 'node:child_process';
import type { BrowserContext, Page, Request, WebSocket } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { type AccountName, ACCOUNTS, loginAs, pagePerTest, until } from './helpers';

let context: BrowserContext;
let page: Page;

interface Frames {
  sockets: WebSocket[];
  sent: Record<string, unknown>[];
  received: Record<string, unknown>[];
}

/** Records every frame of the app's sockets to /api/ws. */
function watchSockets(p: Page): Frames {
  const frames: Frames = { sockets: [], sent: [], received: [] };
  const parse = (payload: string | Buffer) => {
    try {
      return JSON.parse(payload.toString()) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  p.on('websocket', (ws) => {
    if (!ws.url().endsWith('/api/ws')) return;
    frames.sockets.push(ws);
    ws.on('framesent', (f) => frames.sent.push(parse(f.payload)));
    ws.on('framereceived', (f) => frames.received.push(parse(f.payload)));
  });
  return frames;
}

interface BadgeLoads {
  started: number;
  answered: number;
}

/** Counts the app's `GET /badges` calls, started and answered (or failed). */
function watchBadgeLoads(p: Page): BadgeLoads {
  const loads: BadgeLoads = { started: 0, answered: 0 };
  const isBadges = (request: Request) => new URL(request.url()).pathname === '/api/badges';
  p.on('request', (request) => {
    if (isBadges(request)) loads.started += 1;
  });
  const settled = (request: Request) => {
    if (isBadges(request)) loads.answered += 1;
  };
  p.on('requestfinished', settled);
  p.on('requestfailed', settled);
  return loads;
}

/**
 * Signing in loads the counts over HTTP three times (the login form, the tab bar, Home), and an
 * answer to a call started after a pushed count is newer than it: it would put the account's real
 * count back. A test that pushes counts waits for all three answers first.
 */
async function signInCountsLoaded(loads: BadgeLoads): Promise<void> {
  await until('the sign-in badge counts', () => loads.answered >= 3 && loads.answered === loads.started);
}

function readyCount(frames: Frames): number {
  return frames.received.filter((f) => f.type === 'ready').length;
}

/** Writes a feed entry for a demo account through the backend's command. */
function feedPush(account: AccountName, kind: string, payload: unknown): number {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: inject('dataDir'), RUST_LOG: 'warn' };
  delete env.DATABASE_URL;
  const result = spawnSync(
    inject('backendBinary'),
    ['feed', 'push', '--email', ACCOUNTS[account].email, '--kind', kind, '--payload', JSON.stringify(payload)],
    { env, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`companion feed push failed: ${result.stderr}`);
  return Number(result.stdout.trim());
}

pagePerTest((fresh) => {
  ({ context, page } = fresh);
});

describe('realtime channel', () => {
  it('opens one socket after sign-in and authenticates with its first message', async () => {
    const frames = watchSockets(page);
    await loginAs(page, 'anna');
    await until('ready', () => readyCount(frames) === 1);
    expect(frames.sockets).toHaveLength(1);
    const [auth] = frames.sent;
    expect(auth?.type).toBe('auth');
    expect(typeof auth?.token).toBe('string');
    // A first connection has nothing to resume from.
    expect(auth?.last_seq).toBeUndefined();
  });

  it('shows a pushed unread count live: the Home dot and the What’s New badge', async () => {
    const frames = watchSockets(page);
    const loads = watchBadgeLoads(page);
    await loginAs(page, 'john');
    await until('ready', () => readyCount(frames) === 1);
    await signInCountsLoaded(loads);
    // John may have unread demo notifications: a pushed zero clears the dot live first.
    feedPush('john', 'badge', { name: 'notifications', count: 0 });
    await page.getByTestId('unread-dot').waitFor({ state: 'detached', timeout: 8_000 });

    feedPush('john', 'badge', { name: 'notifications', count: 2 });
    await page.getByTestId('unread-dot').waitFor({ timeout: 8_000 });

    feedPush('john', 'badge', { name: 'updates', count: 1 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Menu' }).click();
    await page.getByLabel('3 unread').waitFor({ timeout: 8_000 });
    expect(frames.sockets).toHaveLength(1);
  });

  it('catches up after being offline, resuming from the last number', async () => {
    const frames = watchSockets(page);
    const loads = watchBadgeLoads(page);
    await loginAs(page, 'anna');
    await until('ready', () => readyCount(frames) === 1);
    await signInCountsLoaded(loads);
    const ready = frames.received.find((f) => f.type === 'ready');
    const seq = ready?.seq as number;

    // Clear the dot live first, so its return proves the catch-up. Other suites may already have
    // read Anna's notifications, so the dot is no proof of delivery: wait for the page to record
    // the number as its resume point.
    const cleared = feedPush('anna', 'badge', { name: 'notifications', count: 0 });
    expect(cleared).toBe(seq + 1);
    await page.getByTestId('unread-dot').waitFor({ state: 'detached', timeout: 8_000 });
    await page.waitForFunction(
      (expected) => {
        const saved = window.sessionStorage.getItem('companion.realtime');
        return saved !== null && (JSON.parse(saved) as { seq?: number }).seq === expected;
      },
      cleared,
      { timeout: 8_000 },
    );

    await context.setOffline(true);
    // The app drops its socket on the browser's 'offline' event; push only once it has, or the
    // message may still arrive on the old socket.
    await until('the socket closed', () => frames.sockets[0]?.isClosed() === true);
    const missed = feedPush('anna', 'badge', { name: 'notifications', count: 4 });
    expect(missed).toBe(seq + 2);
    await page.waitForTimeout(3_000);
    // Nothing reached the page while it was offline: the message comes only with the catch-up.
    expect(frames.received.some((f) => f.type === 'message' && f.seq === missed)).toBe(false);

    await context.setOffline(false);
    await until('a second socket', () => frames.sockets.length === 2);
    await until('its ready', () => readyCount(frames) === 2);
    const resumed = frames.sent.filter((f) => f.type === 'auth')[1];
    expect(resumed?.last_seq).toBe(cleared);
    expect(resumed?.epoch).toBe(ready?.epoch);
    expect(frames.received.some((f) => f.type === 'message' && f.seq === missed)).toBe(true);
    await page.getByTestId('unread-dot').waitFor({ timeout: 5_000 });
  });

  it('closes the socket on logout', async () => {
    const frames = watchSockets(page);
    await loginAs(page, 'john');
    await until('ready', () => readyCount(frames) === 1);
    const socket = frames.sockets[0];
    const closed = new Promise<void>((resolve) => socket?.on('close', () => resolve()));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await closed;
    await page.waitForTimeout(1_000);
    expect(frames.sockets).toHaveLength(1);
  });
});
