import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { loginAs, open, pagePerTest, waitForPath, waitForToast } from './helpers';

/**
 * Every document of the programme screens opens as the real PDF in the in-app viewer and
 * downloads as the file, under the strict Content-Security-Policy the server sends.
 */

/** The policy the app must run under: no eval, no inline styles or scripts, same-origin worker. */
export const STRICT_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

let context: BrowserContext;
let page: Page;
let violations: string[];

pagePerTest(async (fresh) => {
  ({ context, page } = fresh);
  violations = [];
  // The app page is served with the strict policy; every violation is recorded.
  // Only the app's pages are routed (API answers stay untouched, bodies readable).
  const isAppPage = (url: URL) => !/^\/(api|assets|media)\//.test(url.pathname);
  await context.route(isAppPage, async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': STRICT_CSP } });
  });
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
});

afterEach(() => {
  expect(violations).toEqual([]);
});

/** Opens a document's menu by its title and returns the menu. */
async function menuOf(title: string) {
  await page.getByRole('button', { name: title }).first().click();
  const menu = page.getByRole('dialog', { name: title });
  await menu.waitFor();
  return menu;
}

/** The viewer shows the PDF: the served bytes are a PDF and its first page is drawn. */
async function expectViewerShowsPdf(open: () => Promise<void>): Promise<number> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/library/') && r.request().method() === 'GET'),
    open(),
  ]);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  // The same address, asked with the session's token, answers the PDF's bytes (the browser
  // does not hand a compressed body it already gave the app back to the test).
  const token = await page.evaluate(() => localStorage.getItem('companion.token'));
  const again = await context.request.get(response.url(), { headers: { Authorization: `Bearer ${token}` } });
  expect((await again.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const viewer = page.getByTestId('pdf-viewer');
  await viewer.waitFor();
  await page.getByRole('img', { name: /^Page 1 of \d+$/ }).waitFor();
  const pages = Number(await viewer.getAttribute('data-pages'));
  expect(pages).toBeGreaterThan(0);
  // Drawn: the canvas holds dark (text) pixels, not only the white page.
  await expect
    .poll(() =>
      page.evaluate(() => {
        const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="pdf-viewer"] canvas');
        const ctx = canvas?.getContext('2d');
        if (!canvas || !ctx || canvas.width === 0) return 0;
        const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 128 && (data[i + 3] ?? 0) > 0) dark += 1;
        return dark;
      }),
    )
    .toBeGreaterThan(50);
  return pages;
}

async function closeViewer(): Promise<void> {
  await page.keyboard.press('Escape');
  await page.getByTestId('pdf-viewer').waitFor({ state: 'detached' });
}

/** Opens the document in the viewer, then downloads it; both are the real PDF. */
async function openAndDownload(title: string): Promise<void> {
  let menu = await menuOf(title);
  await expectViewerShowsPdf(() => menu.getByRole('button', { name: 'Open' }).click());
  await closeViewer();

  menu = await menuOf(title);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    menu.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const bytes = await readFile(await download.path());
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
}

describe('programme documents', () => {
  it('a congress: every download and the floor plan open as the PDF and download', async () => {
    await loginAs(page, 'anna');
    await open(page, '/congresses/1?tab=downloads');
    for (const title of [
      'Alpine Arthroplasty Meeting 2026: Programme',
      'Innsbruck Alpine Congress Hall: Floor Plan',
      'Alpine Arthroplasty Meeting 2026: Key Messages for the Sales Team',
      'Cementless knee fixation: when and how: Slides',
    ]) {
      await openAndDownload(title);
    }

    await page.getByRole('tab', { name: 'Details', exact: true }).click();
    await expectViewerShowsPdf(() => page.getByRole('button', { name: 'Download the floor plan' }).click());
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('pdf-viewer').getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('innsbruck-alpine-congress-hall-floor-plan.pdf');
    expect((await readFile(await download.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it("an activity's 'Download files', a training's and a course's documents and agenda files", async () => {
    await loginAs(page, 'anna');
    await open(page, '/congresses/activities/1');
    await page.getByRole('heading', { name: 'Download files' }).waitFor();
    await openAndDownload('Cementless knee fixation: when and how: Slides');

    await open(page, '/training/1?tab=downloads');
    await openAndDownload('Shoulder Portfolio Sales Academy: Agenda');

    await open(page, '/learn/1');
    await page.getByRole('heading', { name: 'Documents' }).waitFor();
    await openAndDownload('Reverse Shoulder Arthroplasty: Cadaver Course: Programme');

    await open(page, '/learn/1?tab=agenda');
    await page
      .getByRole('button', { name: /Reverse Shoulder Arthroplasty: Cadaver Course: Programme/ })
      .first()
      .waitFor();
    await openAndDownload('Reverse Shoulder Arthroplasty: Cadaver Course: Programme');
  });

  it('the viewer pages, zooms and finds text in a multi-page PDF', async () => {
    await loginAs(page, 'anna');
    await open(page, '/products');
    const menu = await menuOf('Product Range Overview 2026');
    const pages = await expectViewerShowsPdf(() => menu.getByRole('button', { name: 'Open' }).click());
    expect(pages).toBe(2);
    const viewer = page.getByTestId('pdf-viewer');

    await viewer.getByRole('button', { name: 'Next page' }).click();
    expect(await viewer.getByLabel('Page number').inputValue()).toBe('2');
    await page.getByRole('img', { name: 'Page 2 of 2' }).waitFor();
    expect(await viewer.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await viewer.getByRole('button', { name: 'Previous page' }).click();
    expect(await viewer.getByLabel('Page number').inputValue()).toBe('1');

    const width = async () => (await page.getByRole('img', { name: 'Page 1 of 2' }).boundingBox())?.width ?? 0;
    const fitted = await width();
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    await viewer.getByRole('button', { name: 'Fit to width' }).getByText('125%').waitFor();
    expect(await width()).toBeGreaterThan(fitted * 1.2);
    await viewer.getByRole('button', { name: 'Fit to width' }).click();
    expect(Math.round(await width())).toBe(Math.round(fitted));

    await viewer.getByLabel('Search in document').fill('shoulder');
    await viewer.getByRole('button', { name: 'Find' }).click();
    await viewer.getByText(/^1 of \d+$/).waitFor();
    await page.getByTestId('pdf-match-active').waitFor();
    await viewer.getByLabel('Search in document').fill('no-such-word-here');
    await viewer.getByRole('button', { name: 'Find' }).click();
    await viewer.getByText('No matches for "no-such-word-here"').waitFor();
  });

  it('an expired session on a document logs out with the session-expired toast', async () => {
    await loginAs(page, 'anna');
    await open(page, '/congresses/1?tab=downloads');
    const menu = await menuOf('Alpine Arthroplasty Meeting 2026: Programme');
    await page.evaluate(() => localStorage.setItem('companion.token', 'forged.token.value'));
    await menu.getByRole('button', { name: 'Open' }).click();
    await waitForPath(page, '/login');
    await waitForToast(page, 'Your session has expired. Please sign in again.');
    expect(await page.getByTestId('pdf-viewer').count()).toBe(0);
    expect(await page.locator('[data-tone]', { hasText: 'An error occurred while obtaining the file' }).count()).toBe(
      0,
    );
  });
});
