/**
 * Tracked external sharing, end to end: Anna shares a PDF with a surgeon through a real SMTP
 * server (aiosmtpd, `SMTP_TEST_PYTHON`), the surgeon opens the link from the e-mail in a browser
 * context with no session and reads pages 1 to 3; Anna's open app shows the toast and the
 * engagement without a reload; Anna revokes and the surgeon's reload shows the 410 page.
 * A backend of its own, configured for the SMTP server. With E2E_SHOTS_DIR set, screenshots of
 * the viewer at 400 px and 1280 px and of the Shares screen at 400 px go to
 * $E2E_SHOTS_DIR/tracked-shares.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, CHROMIUM_ARGS, CHROMIUM_PATH, PASSWORD, VIEWPORT, waitForPath, waitForSplash } from './helpers';
import { type MailBackend, multiPagePdf, smtpPython, startMailBackend } from './mail-backend';

const shotsDir = process.env.E2E_SHOTS_DIR ? join(process.env.E2E_SHOTS_DIR, 'tracked-shares') : null;

const SURGEON = 'dr.bianchi@clinic.example';
const TITLE = `Surgical technique ${Date.now().toString(36).slice(-5)}`;
const GONE = 'This link is no longer available.';

/** Generous waits: the machine may be loaded; nothing here is timed. */
const LONG = 60_000;

interface Share {
  id: string;
  opens: number;
  pages: { page: number; seconds: number }[];
  state: string;
}

describe.skipIf(!smtpPython)('tracked external sharing', () => {
  // Set by beforeAll; undefined only when its start failed (afterAll then has nothing to stop).
  let server: MailBackend;
  let base = '';
  let browser: Browser;
  let anna: { context: BrowserContext; page: Page };
  let surgeon: { context: BrowserContext; page: Page };
  let token = '';
  let fileId = '';
  let link = '';

  const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${base}/api${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };

  const shot = async (page: Page, name: string) => {
    if (!shotsDir) return;
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(shotsDir, `${name}.png`) });
  };

  beforeAll(async () => {
    if (shotsDir) await mkdir(shotsDir, { recursive: true });
    server = await startMailBackend('shares');
    base = server.base;

    // Anna's five-page PDF, uploaded to My Docs through the API.
    const login = await fetch(`${base}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ACCOUNTS.anna.email, password: PASSWORD }),
    });
    token = ((await login.json()) as { jwt: string }).jwt;
    await fetch(`${base}/api/users/accept-terms`, { headers: { authorization: `Bearer ${token}` } });
    const form = new FormData();
    form.append('name', TITLE);
    form.append('file', new Blob([new Uint8Array(multiPagePdf(5))], { type: 'application/pdf' }), 'technique.pdf');
    form.append('parent', '');
    fileId = (await api<{ id: string }>('/documents/upload', { method: 'POST', body: form })).id;

    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const annaContext = await browser.newContext({ viewport: VIEWPORT, baseURL: base, serviceWorkers: 'block' });
    anna = { context: annaContext, page: await annaContext.newPage() };
    // The surgeon: another browser context, never signed in.
    const surgeonContext = await browser.newContext({ viewport: VIEWPORT, baseURL: base, serviceWorkers: 'block' });
    surgeon = { context: surgeonContext, page: await surgeonContext.newPage() };
    for (const { page } of [anna, surgeon]) page.setDefaultTimeout(LONG);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('Anna shares the PDF externally with the link options; the e-mail links the viewer', async () => {
    const { page } = anna;
    await page.goto('/login');
    await waitForSplash(page);
    await page.getByLabel('E-mail').fill(ACCOUNTS.anna.email);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForPath(page, '/home');

    await page.goto('/documents?tab=my');
    const tile = page.getByTestId('doc-tile').filter({ hasText: TITLE });
    await tile.getByRole('button').first().click();
    const menu = page.getByRole('dialog', { name: TITLE });
    await menu.getByRole('button', { name: 'Share externally' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share externally' });
    await dialog.getByLabel('Recipient e-mail').fill(SURGEON);
    expect(await dialog.getByLabel('Link lasts (days)').inputValue()).toBe('7');
    expect(await dialog.getByRole('switch', { name: 'Allow download' }).isChecked()).toBe(true);
    await dialog.getByLabel('Link lasts (days)').fill('5');
    await shot(page, 'share-dialog-400');
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    await page
      .locator('[data-tone]', { hasText: `successfully shared with ${SURGEON}` })
      .first()
      .waitFor();

    const mail = await server.mailTo(SURGEON);
    const found = new RegExp(`${base.replace(/[.]/g, '\\.')}/s/[A-Za-z0-9_-]{16,}`).exec(mail.body);
    expect(found, mail.body).not.toBeNull();
    link = found?.[0] ?? '';
    expect(mail.body).not.toContain('/api/shared-links/');
  });

  it('Anna watches the Shares screen while the surgeon reads pages 1 to 3', async () => {
    const { page } = anna;
    await page.getByTestId('doc-tile').filter({ hasText: TITLE }).getByRole('button').first().click();
    await page.getByRole('dialog', { name: TITLE }).getByRole('button', { name: 'Shares' }).click();
    await page.waitForURL(/\/documents\/[^/]+\/shares$/);
    const card = page.getByTestId('share-card').filter({ hasText: SURGEON });
    await card.getByText('Not opened yet').waitFor();
    await page.waitForTimeout(500);

    // The toast is watched for before the surgeon opens: it stays a few seconds only.
    const toast = page
      .locator('[data-tone]', { hasText: `${SURGEON} opened "${TITLE}"` })
      .first()
      .waitFor({ timeout: LONG });

    const reader = surgeon.page;
    const sentWithSession: string[] = [];
    reader.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/ws' || request.headers().authorization) sentWithSession.push(url.pathname);
    });
    const response = await reader.goto(link);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['cache-control']).toContain('no-store');
    await reader.getByText(/^Anna .*shared this document with you on /).waitFor();
    await reader.getByText('Opens and the pages you view are recorded for the sender.').waitFor();
    await reader.getByRole('img', { name: /^Page 1 of 5$/ }).waitFor();
    // Nothing of the app around the page: no tab bar, no menu.
    expect(await reader.getByRole('navigation').count()).toBe(0);
    await toast;

    // Reads page 1, then 2, then 3, a few seconds each.
    await reader.waitForTimeout(3000);
    for (const n of [2, 3]) {
      await reader.locator(`[data-page="${n}"]`).evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await reader.getByRole('img', { name: new RegExp(`^Page ${n} of 5$`) }).waitFor();
      await reader.waitForTimeout(3000);
    }
    await shot(reader, 'viewer-400');

    // Anna's screen follows without a reload: one open, pages 1 to 3 with their times.
    await card
      .getByTestId('share-opens')
      .getByText(/^Opened 1 time/)
      .waitFor({ timeout: LONG });
    const pages = card.getByTestId('share-pages');
    for (const n of [1, 2, 3])
      await pages.getByText(new RegExp(`^p\\. ${n} · \\d+:\\d\\d$`)).waitFor({ timeout: LONG });
    await shot(page, 'shares-400');
    expect(sentWithSession).toEqual([]);

    const shares = await api<Share[]>(`/documents/${encodeURIComponent(fileId)}/shares`);
    expect(shares).toHaveLength(1);
    expect(shares[0]?.opens).toBe(1);
    const seconds = new Map(shares[0]?.pages.map((p) => [p.page, p.seconds]));
    expect([1, 2, 3].every((n) => seconds.has(n))).toBe(true);
    expect(seconds.get(1)).toBeGreaterThanOrEqual(1);
  });

  it('shows the viewer on a desktop', async () => {
    if (!shotsDir) return;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(link);
    await page.getByRole('img', { name: /^Page 1 of 5$/ }).waitFor({ timeout: LONG });
    await shot(page, 'viewer-1280');
    await context.close();
  });

  it('Anna revokes the link; the surgeon’s reload shows the 410 page', async () => {
    const { page } = anna;
    const card = page.getByTestId('share-card').filter({ hasText: SURGEON });
    await card.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke link' });
    await confirm.getByText(`Revoke this link? ${SURGEON} will no longer be able to open it.`).waitFor();
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await page.locator('[data-testid="share-card"][data-state="revoked"]').waitFor();

    const response = await surgeon.page.reload();
    expect(response?.status()).toBe(410);
    await surgeon.page.getByRole('heading', { name: GONE }).waitFor();
    await shot(surgeon.page, 'viewer-gone-400');
    const file = await fetch(`${link.replace('/s/', '/api/s/')}/file?view=${'a'.repeat(24)}`);
    expect(file.status).toBe(410);
  });

  it('the Sent view under Documents lists the link with its state and leads to its Shares screen', async () => {
    const { page } = anna;
    await page.goto('/documents?tab=my');
    await waitForSplash(page);
    const sent = page.getByTestId('sent-link');
    await sent.waitFor();
    await shot(page, 'documents-400');
    await sent.click();
    await waitForPath(page, '/documents/sent');
    const card = page.getByTestId('share-card').filter({ hasText: SURGEON });
    await card.getByText(TITLE).waitFor();
    expect(await card.getAttribute('data-state')).toBe('revoked');
    // Once by the surgeon (twice when the desktop screenshot was taken).
    await card
      .getByTestId('share-opens')
      .getByText(/^Opened [12] times?/)
      .waitFor();
    await shot(page, 'sent-400');
    await card.getByRole('button', { name: TITLE }).click();
    await page.waitForURL(/\/documents\/[^/]+\/shares$/);
    await page.getByRole('heading', { name: TITLE }).waitFor();
  });
});
