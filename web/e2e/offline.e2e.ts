import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNTS,
  api,
  launchBrowser,
  loginAs,
  newPage,
  open,
  post,
  tokenOf,
  waitForPath,
  waitForSplash,
} from './helpers';

/**
 * Offline use against the real backend and the production build's service worker, with the
 * network cut by Chromium itself (`context.setOffline`): the last screen reopens with its data,
 * a document kept offline opens in the viewer, actions taken offline are queued and go out
 * exactly once, access lost while away removes the copy, sign-out leaves nothing behind, and a
 * new version is offered rather than taken. With E2E_SHOTS_DIR set, screenshots at 400 px go
 * to $E2E_SHOTS_DIR/offline.
 */

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(webDir, '..');
const SAMPLE_PDF = join(repoDir, 'content', 'files', 'users', 'visit-planning-template.pdf');
const shotsDir = process.env.E2E_SHOTS_DIR ? join(process.env.E2E_SHOTS_DIR, 'offline') : null;

const stamp = Date.now().toString(36).slice(-5);
const BRIEF = `Offline brief ${stamp}`;
const NEW_FOLDER = `Made offline ${stamp}`;
const SHARED_FOLDER = `Field kit ${stamp}`;
const NOTES = `Field notes ${stamp}`;

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

async function upload(token: string, name: string, parent = ''): Promise<string> {
  const form = new FormData();
  form.append('parent', parent);
  form.append('name', name);
  form.append('file', new Blob([await readFile(SAMPLE_PDF)], { type: 'application/pdf' }), 'brief.pdf');
  const { id } = await api<{ id: string }>('/documents/upload', token, { method: 'POST', body: form });
  return id;
}

interface Listed {
  id: string;
  name: string;
  title: string;
  type: string;
}

/** Signs in with the service worker allowed, and waits until it controls the app. */
async function signedInWithWorker(account: keyof typeof ACCOUNTS): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await newPage(browser, { serviceWorkers: 'allow' });
  contexts.push(context);
  await loginAs(page, account);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  return { context, page };
}

async function controlled(page: Page): Promise<boolean> {
  return page.evaluate(() => navigator.serviceWorker.controller !== null);
}

function tile(page: Page, name: string) {
  return page.getByTestId('doc-tile').filter({ hasText: name });
}

async function menuOf(page: Page, name: string) {
  await page.getByRole('button', { name: `Actions for ${name}`, exact: true }).click();
  const menu = page.getByRole('dialog', { name });
  await menu.waitFor();
  return menu;
}

async function keepOffline(page: Page, name: string): Promise<void> {
  const menu = await menuOf(page, name);
  const toggle = menu.getByRole('switch', { name: 'Available offline' });
  await menu.getByText('Available offline', { exact: true }).click();
  await expect.poll(() => toggle.isChecked(), { timeout: 15_000 }).toBe(true);
}

/** Addresses held by the Cache Storage caches whose name passes `filter`. */
async function cachedUrls(page: Page, filter: 'all' | 'files' = 'all'): Promise<Record<string, string[]>> {
  return page.evaluate(async (which) => {
    const out: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      if (which === 'files' && name !== 'companion-files') continue;
      const cache = await caches.open(name);
      out[name] = (await cache.keys()).map((r) => new URL(r.url).pathname);
    }
    return out;
  }, filter);
}

async function databases(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''));
}

describe('offline use', () => {
  let anna: { context: BrowserContext; page: Page };
  let briefId = '';

  it('reopens the last screen with its data when reloaded offline, and shows the offline banner', async () => {
    briefId = await upload(await tokenOf('anna'), BRIEF);
    anna = await signedInWithWorker('anna');
    const { context, page } = anna;
    await open(page, '/documents?tab=my');
    expect(await controlled(page)).toBe(true);
    await tile(page, BRIEF).waitFor();
    await keepOffline(page, BRIEF);
    await shot(page, '03-available-offline');
    await page.keyboard.press('Escape');

    await page.getByTestId('kept-offline-link').click();
    await waitForPath(page, '/offline');
    await page.getByTestId('offline-item').filter({ hasText: BRIEF }).waitFor();
    expect(await page.getByTestId('offline-usage').innerText()).toMatch(/KB|MB/);
    await shot(page, '04-storage-used');
    await open(page, '/documents?tab=my');
    await tile(page, BRIEF).waitFor();

    await context.setOffline(true);
    await page.reload();
    await waitForSplash(page);
    await waitForPath(page, '/documents');
    await tile(page, BRIEF).waitFor();
    await page.getByTestId('offline-banner').waitFor();
    // The cut reaches the service worker's own requests too: an answer it never saved fails.
    expect(
      await page.evaluate(() =>
        fetch('/api/documents/my?never-saved=1').then(
          (r) => `answered ${r.status}`,
          () => 'failed',
        ),
      ),
    ).toBe('failed');
    expect(await page.getByTestId('offline-banner').innerText()).toBe('You are offline. Showing saved data.');
    await shot(page, '01-offline-banner');
  });

  it('opens a document kept offline in the viewer', async () => {
    const { page } = anna;
    const menu = await menuOf(page, BRIEF);
    await menu.getByRole('button', { name: 'Open', exact: true }).click();
    const viewer = page.getByTestId('pdf-viewer');
    await viewer.waitFor();
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="pdf-viewer"]')?.getAttribute('data-pages')) > 0,
    );
    expect(await page.getByText('An error occurred while obtaining the file').count()).toBe(0);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
  });

  it('queues a folder and a share made offline, then sends each exactly once when back online, live for the recipient', async () => {
    const { context, page } = anna;
    const john = await newPage(browser);
    contexts.push(john.context);
    await loginAs(john.page, 'john');
    await open(john.page, '/documents?tab=shared');
    await john.page.getByRole('tablist', { name: 'Document lists' }).waitFor();

    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Create new folder' }).click();
    await page.getByPlaceholder('Untitled folder').fill(NEW_FOLDER);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByTestId('pending-action').filter({ hasText: NEW_FOLDER }).waitFor();

    await (await menuOf(page, BRIEF)).getByRole('button', { name: 'Share', exact: true }).click();
    const share = page.getByRole('dialog', { name: 'Share' });
    await share.getByLabel('Recipient e-mail').fill(ACCOUNTS.john.email);
    await share.getByRole('button', { name: 'Share', exact: true }).click();
    await share.waitFor({ state: 'detached' });
    const pending = page.getByTestId('pending-action');
    await pending.filter({ hasText: ACCOUNTS.john.email }).waitFor();
    expect(await pending.count()).toBe(2);
    expect(await pending.first().innerText()).toContain('Waiting for network');
    // Nothing reached the server yet.
    const annaToken = await tokenOf('anna');
    const before = await api<{ list: Listed[] }>('/documents/my', annaToken);
    expect(before.list.filter((i) => i.name === NEW_FOLDER)).toHaveLength(0);
    expect(await tile(john.page, BRIEF).count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, '02-pending-in-my-docs');

    await context.setOffline(false);
    await pending.first().waitFor({ state: 'detached', timeout: 20_000 });
    await tile(page, NEW_FOLDER).waitFor();
    // Live for the recipient: the share arrives on John's open list without a reload.
    await tile(john.page, BRIEF).waitFor({ timeout: 20_000 });

    // Exactly once, on the server and on both screens.
    const mine = await api<{ list: Listed[] }>('/documents/my', annaToken);
    expect(mine.list.filter((i) => i.name === NEW_FOLDER)).toHaveLength(1);
    const shared = await api<{ list: Listed[] }>('/documents/shared', await tokenOf('john'));
    expect(shared.list.filter((i) => i.id === briefId)).toHaveLength(1);
    expect(await tile(page, NEW_FOLDER).count()).toBe(1);
    expect(await tile(john.page, BRIEF).count()).toBe(1);
  });

  it('removes from the device a document the recipient lost access to while offline, when they reconnect', async () => {
    const annaToken = await tokenOf('anna');
    const { id: folderId } = await post<{ id: string }>('/folders', annaToken, {
      name: SHARED_FOLDER,
      type: 'my',
      parent: null,
    });
    const notesId = await upload(annaToken, NOTES, folderId);
    await post('/folders/share', annaToken, { email: ACCOUNTS.john.email, folder: folderId });

    const john = await signedInWithWorker('john');
    await open(john.page, `/documents/folder/${folderId}?type=shared`);
    await tile(john.page, NOTES).waitFor();
    await keepOffline(john.page, NOTES);
    await john.page.keyboard.press('Escape');
    const fileUrl = `/api/documents/${notesId}/file`;
    expect((await cachedUrls(john.page, 'files'))['companion-files']).toContain(fileUrl);

    await john.context.setOffline(true);
    await john.page.waitForTimeout(500);
    // Anna takes the file out of the shared folder: John no longer sees it.
    await post('/documents/move', annaToken, { folder: null, file: notesId });
    await john.page.waitForTimeout(1_000);
    // Still there while he is away (nothing can tell the device).
    expect((await cachedUrls(john.page, 'files'))['companion-files']).toContain(fileUrl);

    await john.context.setOffline(false);
    await expect
      .poll(async () => (await cachedUrls(john.page, 'files'))['companion-files'] ?? [], {
        timeout: 20_000,
        interval: 500,
      })
      .not.toContain(fileUrl);
    await open(john.page, '/offline');
    expect(await john.page.getByTestId('offline-item').filter({ hasText: NOTES }).count()).toBe(0);
  });

  it('signs out leaving nothing of the user in Cache Storage or IndexedDB', async () => {
    const { page } = anna;
    await open(page, '/documents?tab=my');
    await tile(page, BRIEF).waitFor();
    const before = await cachedUrls(page);
    // There was something to remove: answers and the kept file.
    expect(
      Object.values(before)
        .flat()
        .filter((u) => u.startsWith('/api/')).length,
    ).toBeGreaterThan(0);
    expect(await databases(page)).toEqual(expect.arrayContaining(['companion-pins', 'companion-queue']));

    await open(page, '/menu');
    await page.getByRole('button', { name: 'Logout' }).click();
    await waitForPath(page, '/login');
    await expect.poll(() => databases(page), { timeout: 10_000 }).toEqual([]);
    const after = await cachedUrls(page);
    for (const [name, urls] of Object.entries(after)) {
      expect(name).toMatch(/^workbox-precache/);
      expect(urls.filter((u) => u.startsWith('/api/'))).toEqual([]);
    }
  });

  it('offers a new version of the app instead of taking it while the user is working', async () => {
    const { page } = await signedInWithWorker('anna');
    await open(page, '/documents?tab=my');
    const swFile = join(webDir, 'dist', 'sw.js');
    const original = await readFile(swFile, 'utf8');
    try {
      // A new build: the worker's script changes.
      await writeFile(swFile, `${original}\n// next version ${stamp}\n`);
      await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        await registration?.update();
      });
      const toast = page.getByTestId('update-toast');
      await toast.waitFor({ timeout: 20_000 });
      expect(await toast.innerText()).toContain('A new version is available');
      // Not taken yet: the page is still the one the user is working on.
      expect(new URL(page.url()).pathname).toBe('/documents');
      await shot(page, '05-update-toast');
      await Promise.all([page.waitForEvent('load'), toast.getByRole('button', { name: 'Reload' }).click()]);
      await waitForSplash(page);
      expect(await page.getByTestId('update-toast').count()).toBe(0);
    } finally {
      await writeFile(swFile, original);
    }
  });
});
