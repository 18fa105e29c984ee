import AxeBuilder from '@axe-core/playwright';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, api, loginAs, open, pagePerTest, post, tokenOf } from './helpers';

/**
 * The auditor's workspace against the real backend: Anna deletes a folder; the auditor finds
 * it by name among everyone's items, sees who could see it, reads its history and its CSV, and
 * finds the deletion in the company's activity. With E2E_SHOTS_DIR set, screenshots at 1280 px
 * and 400 px go to $E2E_SHOTS_DIR/audit.
 */

const shotsDir = process.env.E2E_SHOTS_DIR ? join(process.env.E2E_SHOTS_DIR, 'audit') : null;
// Unique names, so the suite can run against a database that other suites use too.
const stamp = Date.now().toString(36).slice(-5);
const FOLDER = `Board Pack ${stamp}`;
const KEPT = `Board Pack ${stamp} kept`;

let page: Page;
let folderId = '';

beforeAll(async () => {
  if (shotsDir) await mkdir(shotsDir, { recursive: true });
  const anna = await tokenOf('anna');
  const made = await post<{ id: string }>('/folders', anna, { name: FOLDER, type: 'my', parent: null });
  folderId = made.id;
  await post('/folders', anna, { name: KEPT, type: 'my', parent: null });
  await post(`/folders/${folderId}/delete`, anna, {});
  // The auditor's search sees it at once (the command answered after the read models).
  const auditor = await tokenOf('auditor');
  const found = await api<{ id: string }[]>(`/audit/items?q=${encodeURIComponent(FOLDER)}`, auditor);
  expect(found.map((i) => i.id)).toContain(folderId);
});

pagePerTest((fresh) => {
  ({ page } = fresh);
});

async function shot(name: string): Promise<void> {
  if (!shotsDir) return;
  await page.waitForTimeout(350);
  await page.screenshot({ path: join(shotsDir, `${name}.png`), fullPage: false });
}

/** axe's findings on the page as it is, one line per element. */
async function violations(): Promise<string[]> {
  // Colours are judged once the opening animations are over.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

/** Clicks `button` and returns the text of the file it downloads. */
async function downloaded(click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}

describe('the auditor workspace', () => {
  it("finds a deleted folder of Anna's by name and reads its history and CSV", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await loginAs(page, 'auditor');
    await open(page, '/menu');
    await page.getByRole('link', { name: 'Audit: documents and activity' }).click();
    await page.waitForURL((url) => url.pathname === '/audit');
    await shot('01-workspace-1280');

    await page.getByLabel('Name').fill(FOLDER.toLowerCase());
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = page.getByTestId('audit-item');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    const gone = page.locator('[data-testid="audit-item"][data-deleted="true"]');
    expect(await gone.count()).toBe(1);
    const text = await gone.innerText();
    expect(text).toContain(FOLDER);
    expect(text).toContain('Anna Rossi');
    expect(text).toContain(ACCOUNTS.anna.email);
    expect(text.toLowerCase()).toContain('deleted');
    expect(text).toContain('by Anna Rossi');

    // Deleted only.
    await page.getByLabel('Status').selectOption('deleted');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1 item', { exact: true }).waitFor();

    // Who could see it just before it went: its owner.
    await gone.getByRole('button', { name: 'Who could see it' }).click();
    await gone.getByRole('button', { name: 'Show' }).click();
    await gone.getByText('Anna Rossi (owner)').waitFor();
    await gone.getByText('Nobody else: it was not shared').waitFor();
    await shot('02-search-deleted-1280');
    expect(await violations(), 'search').toEqual([]);

    await gone.getByRole('link', { name: 'History' }).click();
    await page.waitForURL((url) => url.pathname === `/documents/history/${folderId}`);
    await page.getByRole('heading', { name: FOLDER }).waitFor();
    const actions = await page
      .getByTestId('history-entry')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-action')));
    expect(actions).toEqual(['deleted', 'created']);
    const csv = await downloaded(() => page.getByRole('button', { name: 'Export CSV' }).click());
    expect(csv.name).toBe(`history-${folderId}.csv`);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('at,actor,actor_email,action,detail,from,to');
    expect(lines).toHaveLength(3);
    expect(csv.text).toContain(`"Folder '${FOLDER}' created"`);
    expect(csv.text).toContain('"deleted","Folder deleted"');
  });

  it('reads the company activity by user and action and downloads it', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await loginAs(page, 'auditor');
    await open(page, '/audit/activity');
    await page.getByTestId('activity-entry').first().waitFor();
    await shot('03-activity-1280');
    expect(await violations(), 'activity').toEqual([]);

    await page.getByLabel('User e-mail').fill(ACCOUNTS.anna.email);
    await page.getByLabel('Action').selectOption('deleted');
    await page.getByRole('button', { name: 'Apply' }).click();
    const entry = page.locator('[data-testid="activity-entry"]', { hasText: FOLDER }).first();
    await entry.waitFor();
    const entries = await page
      .getByTestId('activity-entry')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-action')));
    expect(new Set(entries)).toEqual(new Set(['deleted']));
    expect(await entry.innerText()).toContain('Anna Rossi');

    const csv = await downloaded(() => page.getByRole('button', { name: 'Download CSV' }).click());
    expect(csv.name).toBe('activity.csv');
    expect(csv.text.split('\r\n')[0]).toBe('at,actor,actor_email,action,item_id,item_type,item,detail');
    expect(csv.text).toContain(`"${FOLDER}"`);
    expect(csv.text).not.toContain('"created"');

    // The item's name leads to its history.
    await entry.getByRole('link', { name: FOLDER }).click();
    await page.waitForURL((url) => url.pathname === `/documents/history/${folderId}`);
  });

  it('degrades to one column at 400 px', async () => {
    await loginAs(page, 'auditor');
    await open(page, '/audit');
    await page.getByLabel('Name').fill(FOLDER);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByTestId('audit-item').first().waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(400);
    await shot('04-search-400');
    await open(page, '/audit/activity');
    await page.getByTestId('activity-entry').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    await shot('05-activity-400');
  });

  it('is closed to a rep', async () => {
    await loginAs(page, 'anna');
    await open(page, '/audit');
    await page.getByText('Only auditors can use the audit workspace').waitFor();
    const token = await tokenOf('anna');
    await expect(api('/audit/items?q=a', token)).rejects.toThrow('403');
  });
});
