import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, api, baseURL, loginAs, open, pagePerTest, post, tokenOf } from './helpers';

/**
 * An item's history in pages and by role against the real backend: Anna's file opened 230
 * times fills more than one page of 200, and the older entries load as the list scrolls; John,
 * who received it, reads its own facts and his own read, never Anna's. With E2E_SHOTS_DIR set,
 * screenshots at 400 px go to $E2E_SHOTS_DIR/history.
 */

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SAMPLE_PDF = join(repoDir, 'content', 'files', 'users', 'visit-planning-template.pdf');
const shotsDir = process.env.E2E_SHOTS_DIR ? join(process.env.E2E_SHOTS_DIR, 'history') : null;
// Unique names, so the suite can run against a database that other suites use too.
const stamp = Date.now().toString(36).slice(-5);
const TITLE = `Read often ${stamp}`;
const OPENS = 230;

let page: Page;
let fileId = '';

/**
 * Opens the file once as the holder of `token`. 230 opens in a row pass the session's burst
 * (200, then 20 a second): on a 429 it waits the Retry-After the server names and opens again,
 * as a client would.
 */
async function openFile(token: string): Promise<void> {
  for (;;) {
    const response = await fetch(`${baseURL()}/api/documents/${fileId}/file`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await response.arrayBuffer();
    if (response.status !== 429) {
      expect(response.status).toBe(200);
      return;
    }
    const seconds = Number(response.headers.get('retry-after') ?? '1');
    await new Promise((r) => setTimeout(r, Math.max(seconds, 0.05) * 1000));
  }
}

beforeAll(async () => {
  if (shotsDir) await mkdir(shotsDir, { recursive: true });
  const anna = await tokenOf('anna');
  const form = new FormData();
  form.append('parent', '');
  form.append('name', TITLE);
  form.append('file', new Blob([await readFile(SAMPLE_PDF)], { type: 'application/pdf' }), 'read-often.pdf');
  const uploaded = await api<{ id: string }>('/documents/upload', anna, { method: 'POST', body: form });
  fileId = uploaded.id;
  await post('/documents/share', anna, { email: ACCOUNTS.john.email, file: fileId });
  for (let i = 0; i < OPENS; i += 1) await openFile(anna);
  await openFile(await tokenOf('john'));
}, 120_000);

pagePerTest((fresh) => {
  ({ page } = fresh);
});

async function shot(name: string): Promise<void> {
  if (!shotsDir) return;
  await page.waitForTimeout(350);
  await page.screenshot({ path: join(shotsDir, `${name}.png`), fullPage: false });
}

const entries = () => page.getByTestId('history-entry');

describe('history in pages and by role', () => {
  it('the owner scrolls through more than one page, newest first', async () => {
    await loginAs(page, 'anna');
    await open(page, `/documents/history/${encodeURIComponent(fileId)}`);
    await page.getByRole('heading', { name: TITLE }).waitFor();
    expect(await page.getByTestId('history-reads').innerText()).toBe(`Opened ${OPENS + 1} times by 2 people`);
    await shot('01-history-top');
    // The newest entry first: John's read.
    expect(await entries().first().innerText()).toContain(ACCOUNTS.john.email);
    // Scrolling to the end loads the older page; the upload, the oldest, comes last.
    await page.getByTestId('history-more').scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="history-entry"]').length === n,
      OPENS + 3,
    );
    await page.getByTestId('history-more').waitFor({ state: 'detached' });
    expect(await entries().last().getAttribute('data-action')).toBe('uploaded');
    await entries().last().scrollIntoViewIfNeeded();
    await shot('02-history-end');
  });

  it('the recipient reads the file facts and his own read only', async () => {
    await loginAs(page, 'john');
    await open(page, `/documents/history/${encodeURIComponent(fileId)}`);
    await page.getByRole('heading', { name: TITLE }).waitFor();
    await entries().first().waitFor();
    const actions = await entries().evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-action')));
    expect(actions).toEqual(['opened', 'shared', 'uploaded']);
    expect(await entries().first().innerText()).toContain(ACCOUNTS.john.email);
    expect(await page.getByTestId('history-reads').innerText()).toBe('Opened once');
    expect(await page.getByTestId('history-more').count()).toBe(0);
    await shot('03-history-recipient');
  });
});
