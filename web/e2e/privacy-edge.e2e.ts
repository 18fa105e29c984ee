import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, loginAs, newPage, open, post, tokenOf, waitForToast } from './helpers';

/**
 * What the device keeps and what the login screen shows: the service worker keeps no answer of
 * the administrator's and the auditor's calls, nor any history, past state or who-could-see
 * answer; single sign-on errors show only the server's fixed texts, never what a link carries.
 * With E2E_SHOTS_DIR set, screenshots at 400 px go to $E2E_SHOTS_DIR/privacy-edge.
 */

const shotsDir = process.env.E2E_SHOTS_DIR ? join(process.env.E2E_SHOTS_DIR, 'privacy-edge') : null;

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  if (shotsDir) await mkdir(shotsDir, { recursive: true });
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
});

async function shot(page: Page, name: string): Promise<void> {
  if (!shotsDir) return;
  await page.waitForTimeout(350);
  await page.screenshot({ path: join(shotsDir, `${name}.png`) });
}

/** Reads `paths` from the page (through its service worker) as `token`; the statuses. */
async function readThroughWorker(page: Page, token: string, paths: string[]): Promise<number[]> {
  return page.evaluate(
    async ({ token, paths }) => {
      const statuses: number[] = [];
      for (const path of paths) {
        const response = await fetch(path, { headers: { authorization: `Bearer ${token}` } });
        statuses.push(response.status);
      }
      return statuses;
    },
    { token, paths },
  );
}

/** The paths the worker's `companion-api` cache holds. */
async function keptAnswers(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    if (!(await caches.has('companion-api'))) return [];
    const cache = await caches.open('companion-api');
    return (await cache.keys()).map((r) => new URL(r.url).pathname);
  });
}

describe('privacy on the device and on the login screen', () => {
  it("keeps no answer of the auditor's, the administrator's or the history calls", async () => {
    const anna = await tokenOf('anna');
    const folder = await post<{ id: string }>('/folders', anna, {
      name: `Kept apart ${Date.now()}`,
      type: 'my',
      parent: null,
    });
    const auditor = await tokenOf('auditor');

    const { context, page } = await newPage(browser, { serviceWorkers: 'allow' });
    contexts.push(context);
    await loginAs(page, 'auditor');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await open(page, '/home');
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    const privatePaths = [
      '/api/audit/items?search=a',
      '/api/audit/activity',
      '/api/admin/terms-acceptances',
      `/api/documents/${folder.id}/history`,
      `/api/items/${folder.id}/access-as-of?at=${encodeURIComponent(new Date().toISOString())}`,
    ];
    const statuses = await readThroughWorker(page, auditor, [...privatePaths, '/api/badges']);
    // The auditor reads each of them (so a kept answer would be possible)...
    expect(statuses).toEqual(privatePaths.map(() => 200).concat(200));
    // ...and the device keeps only the ordinary answer.
    await expect.poll(() => keptAnswers(page)).toContain('/api/badges');
    const kept = await keptAnswers(page);
    for (const path of privatePaths) expect(kept).not.toContain(path.split('?')[0]);
    await shot(page, '01-auditor-home');
  });

  it('shows a fixed message for a single sign-on error, never the text of the link', async () => {
    const { context, page } = await newPage(browser);
    contexts.push(context);
    await open(page, '/login?error=Your+account+is+locked.+Call+%2B1+555+0100');
    await waitForToast(page, 'Login failed');
    expect(await page.getByText('Call +1 555 0100').count()).toBe(0);
    await shot(page, '02-sso-error-from-a-link');

    await open(page, `/login?error=${encodeURIComponent('Login failed: this account is disabled')}`);
    await waitForToast(page, 'Login failed: this account is disabled');
    await shot(page, '03-sso-error-from-the-server');
  });
});
