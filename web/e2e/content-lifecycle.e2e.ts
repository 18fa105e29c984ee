/**
 * The content lifecycle on reps' devices, end to end: the publisher uploads a US document, the
 * approver releases it; John (US certificate) sees it arrive live in the US tab, keeps it offline
 * and sends it externally; John's second device (another browser context: the demo has one US
 * account) opens it, keeps it offline and goes offline. The approver withdraws it: John's list
 * drops it within 5 s; the second device comes back and purges it before it is shown; the
 * external link answers 410; the withdrawal report lists both devices as purged.
 * A backend of its own with a real SMTP server (aiosmtpd, `SMTP_TEST_PYTHON`) for the external link.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNTS,
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  PASSWORD,
  VIEWPORT,
  eventually,
  waitForPath,
  waitForSplash,
} from './helpers';
import { type MailBackend, multiPagePdf, smtpPython, startMailBackend } from './mail-backend';

/** With E2E_SHOTS_DIR set, the console at 1280 px and the withdrawn page at 400 px are saved there. */
const shotsDir = process.env.E2E_SHOTS_DIR ? join(process.env.E2E_SHOTS_DIR, 'lifecycle') : null;

const SURGEON = 'dr.lifecycle@clinic.example';
const TITLE = `Knee brochure ${Date.now().toString(36).slice(-5)}`;
const REASON = 'Wrong sizing table on page 2';

/** Generous waits: the machine may be loaded; only the live drop is timed. */
const LONG = 60_000;

interface Report {
  id: number;
  state: string;
  reason: string;
  holders: {
    user: { id: string; name: string; email: string };
    how: string[];
    devices: { device: string; name: string; purged_at: number | null }[];
  }[];
}

describe.skipIf(!smtpPython)("content lifecycle on reps' devices", () => {
  // Set by beforeAll; undefined only when its start failed (afterAll then has nothing to stop).
  let server: MailBackend;
  let base = '';
  let browser: Browser;
  let john: { context: BrowserContext; page: Page };
  let second: { context: BrowserContext; page: Page };
  const tokens: Record<string, string> = {};
  let libraryId = 0;
  let itemId = '';
  let link = '';

  const call = async <T>(who: string, path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${base}/api${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${tokens[who] ?? ''}`,
        ...(typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
        ...(init.headers ?? {}),
      },
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const postJson = <T>(who: string, path: string, body: unknown) =>
    call<T>(who, path, { method: 'POST', body: JSON.stringify(body) });

  const signIn = async (email: string) => {
    const login = await fetch(`${base}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: email, password: PASSWORD }),
    });
    const { jwt } = (await login.json()) as { jwt: string };
    await fetch(`${base}/api/users/accept-terms`, { headers: { authorization: `Bearer ${jwt}` } });
    return jwt;
  };

  const signInPage = async (page: Page, email: string = ACCOUNTS.john.email) => {
    await page.goto('/login');
    await waitForSplash(page);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForPath(page, '/home');
  };

  const tileOf = (page: Page) => page.getByTestId('doc-tile').filter({ hasText: TITLE });

  /** Keeps the document on the device through its action menu's "Available offline" switch. */
  const pinOffline = async (page: Page) => {
    await tileOf(page).getByRole('button').first().click();
    const menu = page.getByRole('dialog', { name: TITLE });
    await menu.getByRole('switch', { name: 'Available offline' }).click();
    await page.getByText('Saved on this device').first().waitFor();
    await page.keyboard.press('Escape');
  };

  /** What the device holds of the document: pins (IndexedDB) and Cache Storage entries naming it. */
  const heldOnDevice = (page: Page) =>
    page.evaluate(
      async ({ item, library }) => {
        const urls = [`/api/documents/${encodeURIComponent(item)}/file`, `/api/library/${library}/file`];
        const held: string[] = [];
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          for (const request of await cache.keys()) {
            if (urls.some((url) => request.url.includes(url))) held.push(`${name}:${request.url}`);
          }
        }
        const pins = await new Promise<string[]>((done) => {
          const open = indexedDB.open('companion-pins');
          open.onupgradeneeded = () => open.result.createObjectStore('kv');
          open.onsuccess = () => {
            const db = open.result;
            const all = db.transaction('kv', 'readonly').objectStore('kv').getAllKeys();
            all.onsuccess = () => {
              db.close();
              done(all.result.map(String));
            };
            all.onerror = () => done([]);
          };
          open.onerror = () => done([]);
        });
        return [...held, ...pins.filter((id) => id === item || urls.includes(id)).map((id) => `pin:${id}`)];
      },
      { item: itemId, library: libraryId },
    );

  const deviceOf = (page: Page) => page.evaluate(() => localStorage.getItem('companion.device-id') ?? '');

  beforeAll(async () => {
    server = await startMailBackend('lifecycle');
    base = server.base;
    tokens.publisher = await signIn('publisher@example.com');
    tokens.approver = await signIn('approver@example.com');
    tokens.john = await signIn(ACCOUNTS.john.email);

    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const open = async () => {
      const context = await browser.newContext({ viewport: VIEWPORT, baseURL: base, serviceWorkers: 'block' });
      const page = await context.newPage();
      page.setDefaultTimeout(LONG);
      return { context, page };
    };
    john = await open();
    second = await open();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a released US document reaches John live; he keeps it offline and sends it externally', async () => {
    await signInPage(john.page);
    await john.page.goto('/documents?tab=us');
    await john.page.getByRole('tab', { name: /US/ }).waitFor();

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(multiPagePdf(2))], { type: 'application/pdf' }), 'brochure.pdf');
    form.append('title', TITLE);
    form.append('audience', 'us');
    const created = await call<{ id: number; version: number; status: string }>('publisher', '/admin/library', {
      method: 'POST',
      body: form,
    });
    expect(created.status).toBe('draft');
    libraryId = created.id;
    await postJson('publisher', `/admin/library/${libraryId}/submit`, {});
    // Four eyes: the publisher who wrote it cannot approve it.
    const own = await fetch(`${base}/api/admin/library/${libraryId}/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.publisher}`, 'content-type': 'application/json' },
      body: JSON.stringify({ comment: 'mine' }),
    });
    expect(own.status).toBe(403);
    const approved = await postJson<{ status: string }>('approver', `/admin/library/${libraryId}/approve`, {
      comment: 'Checked',
    });
    expect(approved.status).toBe('released');

    // Live: no reload on John's side.
    await tileOf(john.page).waitFor({ timeout: 15_000 });
    const us = await call<{ list: { id: string; title: string; name: string }[] }>('john', '/usadocs');
    itemId = us.list.find((i) => i.title === TITLE || i.name === TITLE)?.id ?? '';
    expect(itemId).not.toBe('');

    await pinOffline(john.page);
    expect((await heldOnDevice(john.page)).length).toBeGreaterThan(0);

    await postJson('john', '/documents/external-share', { email: SURGEON, file: itemId });
    const mail = await server.mailTo(SURGEON);
    const found = new RegExp(`${base.replace(/[.]/g, '\\.')}/s/[A-Za-z0-9_-]{16,}`).exec(mail.body);
    expect(found, mail.body).not.toBeNull();
    link = found?.[0] ?? '';
    expect((await fetch(link)).status).toBe(200);
  });

  it('the second device opens it, keeps it offline and goes offline', async () => {
    const { page, context } = second;
    await signInPage(page);
    await page.goto('/documents?tab=us');
    await tileOf(page).waitFor();
    const opened = await page.evaluate(
      async (url) => {
        const token = localStorage.getItem('companion.token') ?? '';
        return (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status;
      },
      `/api/documents/${encodeURIComponent(itemId)}/file`,
    );
    expect(opened).toBe(200);
    await pinOffline(page);
    expect((await heldOnDevice(page)).length).toBeGreaterThan(0);
    await context.setOffline(true);
    await page.waitForFunction(() => !navigator.onLine);
  });

  it("withdrawn: John's list drops it within 5 s and his copy is purged", async () => {
    const withdrawn = await postJson<{ status: string }>('approver', `/admin/library/${libraryId}/withdraw`, {
      reason: REASON,
    });
    expect(withdrawn.status).toBe('withdrawn');
    const started = Date.now();
    await tileOf(john.page).waitFor({ state: 'detached', timeout: 5_000 });
    expect(Date.now() - started).toBeLessThan(5_000);
    await eventually(
      "John's copy purged",
      async () => ((await heldOnDevice(john.page)).length === 0 ? true : null),
      10_000,
    );
  });

  it('the second device comes back and purges it before any screen shows it', async () => {
    const { page, context } = second;
    // It was on screen when the device went offline: leave that screen first.
    await page.goto('about:blank');
    // From the first paint of the next load, every screen is watched: the withdrawn title must never show.
    await page.addInitScript((title) => {
      const seen: string[] = [];
      (window as unknown as { seenWithdrawn: string[] }).seenWithdrawn = seen;
      const watch = () =>
        new MutationObserver(() => {
          const tiles = Array.from(document.querySelectorAll<HTMLElement>('[data-testid="doc-tile"]'));
          if (tiles.some((tile) => tile.textContent?.includes(title))) seen.push(location.pathname);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      if (document.body) watch();
      else document.addEventListener('DOMContentLoaded', watch);
    }, TITLE);
    await context.setOffline(false);
    await page.goto('/documents?tab=us');
    await waitForSplash(page);
    await page.getByRole('tab', { name: /US/ }).waitFor();
    await eventually('the second device purged', async () => ((await heldOnDevice(page)).length === 0 ? true : null));
    expect(await tileOf(page).count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { seenWithdrawn: string[] }).seenWithdrawn)).toEqual([]);
    // The purged copy never opens again.
    const offlineCopy = await page.evaluate(
      async (url) => {
        for (const name of await caches.keys()) if (await (await caches.open(name)).match(url)) return true;
        return false;
      },
      `/api/documents/${encodeURIComponent(itemId)}/file`,
    );
    expect(offlineCopy).toBe(false);
  });

  it('the external link answers 410 and the report lists both devices as purged', async () => {
    expect((await fetch(link)).status).toBe(410);
    const file = await fetch(`${base}/api/library/${libraryId}/file`, {
      headers: { authorization: `Bearer ${tokens.john}` },
    });
    expect(file.status).toBe(410);
    expect(((await file.json()) as { state: string; reason: string }).reason).toBe(REASON);

    const devices = [await deviceOf(john.page), await deviceOf(second.page)];
    const report = await eventually('both purges recorded', async () => {
      const answer = await call<Report>('approver', `/admin/library/${libraryId}/withdrawal-report`);
      const holder = answer.holders.find((h) => h.user.email === ACCOUNTS.john.email);
      const purged = holder?.devices.filter((d) => devices.includes(d.device) && d.purged_at !== null) ?? [];
      return purged.length === 2 ? answer : null;
    });
    expect(report.state).toBe('withdrawn');
    expect(report.reason).toBe(REASON);
    const holder = report.holders.find((h) => h.user.email === ACCOUNTS.john.email);
    expect(holder?.how).toEqual(expect.arrayContaining(['pinned_offline', 'sent_externally']));
  });

  it.skipIf(!shotsDir)('screenshots: the console at 1280 px, the withdrawn page at 400 px', async () => {
    const dir = shotsDir ?? '';
    await mkdir(dir, { recursive: true });
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: base,
      serviceWorkers: 'block',
    });
    const desk = await context.newPage();
    desk.setDefaultTimeout(LONG);
    await signInPage(desk, 'approver@example.com');
    await desk.goto('/console');
    await waitForSplash(desk);
    await desk.getByText(TITLE).first().waitFor();
    await desk.waitForTimeout(500);
    await desk.screenshot({ path: join(dir, 'console-list.png') });
    await desk.goto(`/console/library/${libraryId}`);
    await waitForSplash(desk);
    await desk.getByText(REASON).first().waitFor();
    await desk.waitForTimeout(500);
    await desk.screenshot({ path: join(dir, 'console-document.png'), fullPage: true });
    await context.close();

    await john.page.goto(`/documents/${encodeURIComponent(itemId)}/withdrawn`);
    await waitForSplash(john.page);
    await john.page.getByText(REASON).first().waitFor();
    await john.page.waitForTimeout(400);
    await john.page.screenshot({ path: join(dir, 'withdrawn-page.png') });
  });
});
