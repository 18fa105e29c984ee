import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, CHROMIUM_ARGS, CHROMIUM_PATH, loginAs, VIEWPORT, waitForPath, waitForSplash } from './helpers';

/**
 * Web Push in the service worker: a push delivered through the DevTools protocol
 * (`ServiceWorker.deliverPushMessage`, as a push service would) is shown as a notification, and
 * opening it takes the app to its link, through login when signed out. Also the app's own
 * prompt and the menu switch. Persistent profiles: the worker must control the page.
 */

const shotsDir = process.env.E2E_SHOTS_DIR ? join(process.env.E2E_SHOTS_DIR, 'push') : null;
const profiles: string[] = [];
let context: BrowserContext | undefined;

beforeAll(async () => {
  if (shotsDir) await mkdir(shotsDir, { recursive: true });
});

afterEach(async () => {
  await context?.close();
  context = undefined;
  await Promise.all(profiles.splice(0).map((p) => rm(p, { recursive: true, force: true })));
});

async function shot(page: Page, name: string): Promise<void> {
  if (!shotsDir) return;
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(shotsDir, `${name}.png`) });
}

/** A fresh profile whose page is controlled by the app's service worker, on `/login`. */
async function controlledPage(): Promise<Page> {
  const profile = await mkdtemp(join(tmpdir(), 'companion-push-'));
  profiles.push(profile);
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    viewport: VIEWPORT,
    baseURL: baseURL(),
    serviceWorkers: 'allow',
  });
  await context.grantPermissions(['notifications'], { origin: new URL(baseURL()).origin });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  await page.goto('/login');
  await waitForSplash(page);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await waitForSplash(page);
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  return page;
}

interface Shown {
  title: string;
  body: string;
  url: unknown;
}

/** Delivers `payload` to the app's service worker as a push service would. */
async function deliverPush(page: Page, payload: unknown): Promise<void> {
  if (!context) throw new Error('no context');
  const cdp = await context.newCDPSession(page);
  const registrationId = await new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const live = (registrations as { registrationId: string; isDeleted: boolean }[]).find((r) => !r.isDeleted);
      if (live) resolve(live.registrationId);
    });
    void cdp.send('ServiceWorker.enable');
  });
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: new URL(baseURL()).origin,
    registrationId,
    data: JSON.stringify(payload),
  });
}

/**
 * Delivers `payload` and waits until the worker shows it. The DevTools delivery can reach a
 * worker that is being started or replaced on a busy machine and be dropped: it is then sent once
 * more (the same tag, so a second showing replaces the first as a push service's retry would).
 */
async function deliverAndShow(page: Page, payload: typeof PUSH): Promise<Shown[]> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await deliverPush(page, payload);
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      const shown = await shownNotifications(page);
      if (shown.length > 0) return shown;
      await page.waitForTimeout(100);
    }
  }
  return shownNotifications(page);
}

async function shownNotifications(page: Page): Promise<Shown[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const shown = await registration.getNotifications();
    return shown.map((n) => ({ title: n.title, body: n.body, url: (n.data as { url?: unknown } | null)?.url }));
  });
}

/**
 * Opens the notification as a tap would: the worker's own `notificationclick` code (`openLink`)
 * with the notification's data. (No protocol command taps a notification.)
 */
async function tapNotification(): Promise<void> {
  const worker = context?.serviceWorkers()[0];
  if (!worker) throw new Error('no service worker');
  await worker.evaluate(`(async () => {
    const [shown] = await self.registration.getNotifications();
    shown.close();
    await openLink(shown.data);
  })()`);
}

const PUSH = {
  title: 'Documents shared with you, instantly',
  body: 'Files shared by colleagues now arrive while the app is open.',
  link: { type: 'notification', id: 2 },
  url: '/new?section=notifications&notification=2',
  tag: 'notification-2',
};

describe('push notifications', () => {
  it('shows a pushed notification and opens its screen when tapped', async () => {
    const page = await controlledPage();
    await loginAs(page, 'john');
    expect(await deliverAndShow(page, PUSH)).toEqual([{ title: PUSH.title, body: PUSH.body, url: PUSH.url }]);
    await tapNotification();
    await waitForPath(page, '/new');
    expect(new URL(page.url()).searchParams.get('notification')).toBe('2');
    await page.getByRole('dialog').getByRole('heading', { name: PUSH.title }).waitFor();
  });

  it('opened while signed out, goes through login to the notification', async () => {
    const page = await controlledPage();
    expect(await deliverAndShow(page, PUSH)).toHaveLength(1);
    await tapNotification();
    await waitForPath(page, '/login');
    await loginAs(page, 'john', '/new');
    expect(new URL(page.url()).searchParams.get('notification')).toBe('2');
    await page.getByRole('dialog').getByRole('heading', { name: PUSH.title }).waitFor();
  });

  it('a push with a foreign link opens the home screen, never another site', async () => {
    const page = await controlledPage();
    await loginAs(page, 'john');
    await page.goto('/menu');
    await waitForSplash(page);
    const shown = await deliverAndShow(page, { ...PUSH, url: 'https://evil.example/phish', tag: 'x' });
    expect(shown.map((n) => n.url)).toEqual(['/home']);
    await tapNotification();
    await waitForPath(page, '/home');
  });

  it('offers push once after sign-in, in its own words, then never again; the menu has the switch for this device', async () => {
    const page = await controlledPage();
    await context?.clearPermissions();
    await loginAs(page, 'anna');
    const prompt = page.getByTestId('push-prompt');
    await prompt.getByRole('heading', { name: 'Get notified on this device' }).waitFor({ timeout: 15_000 });
    await shot(page, 'push-prompt');
    await prompt.getByRole('button', { name: 'Not now' }).click();
    await prompt.waitFor({ state: 'detached' });
    await page.reload();
    await waitForSplash(page);
    await page.waitForTimeout(5_000);
    expect(await prompt.count()).toBe(0);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Menu' }).click();
    await waitForPath(page, '/menu');
    const toggle = page.getByRole('switch', { name: 'Push notifications' });
    expect(await toggle.isChecked()).toBe(false);
    await page.getByRole('switch', { name: 'Push notifications' }).scrollIntoViewIfNeeded();
    await shot(page, 'push-menu-switch');
  });
});
