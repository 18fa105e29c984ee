import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { humanSize, usageLabel } from '../src/features/documents/logic/usage';
import { api, loginAs, open, pagePerTest, tokenOf } from './helpers';

/**
 * The storage usage line of My Docs against the real backend: Anna sees what her files take of
 * her quota, it grows with an upload, and the other tabs do not show it. With E2E_SHOTS_DIR
 * set, a screenshot at 400 px goes to $E2E_SHOTS_DIR/documents.
 */

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SAMPLE_PDF = join(repoDir, 'content', 'files', 'users', 'visit-planning-template.pdf');
const shotsDir = process.env.E2E_SHOTS_DIR ? join(process.env.E2E_SHOTS_DIR, 'documents') : null;

let page: Page;

pagePerTest((fresh) => {
  ({ page } = fresh);
});

interface Usage {
  used_bytes: number;
  quota_bytes: number;
}

/** Anna's usage, read through a session of its own. */
async function usageOf(): Promise<Usage> {
  return api<Usage>('/documents/usage', await tokenOf('anna'));
}

function usageLine() {
  return page.getByTestId('storage-usage');
}

describe('storage usage', () => {
  it('My Docs shows what the files take of the quota, and it grows with an upload', async () => {
    await loginAs(page, 'anna');
    await open(page, '/documents?tab=my');
    await usageLine().waitFor();
    const before = (await usageLine().innerText()).trim();
    expect(before).toMatch(/ of 2 GB used$/);

    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Upload file' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload new file' });
    await dialog.getByLabel('File', { exact: true }).setInputFiles(SAMPLE_PDF);
    await dialog.getByPlaceholder('Untitled file').fill(`Usage ${Date.now().toString(36)}`);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.waitForFunction((old) => {
      const line = document.querySelector('[data-testid="storage-usage"]');
      return line !== null && line.textContent?.trim() !== old;
    }, before);
    const usage = await usageOf();
    expect(usage.quota_bytes).toBe(2048 * 1024 * 1024);
    expect((await usageLine().innerText()).trim()).toBe(usageLabel(usage.used_bytes, usage.quota_bytes));
    expect(humanSize(usage.quota_bytes)).toBe('2 GB');
    if (shotsDir) {
      await mkdir(shotsDir, { recursive: true });
      await page.screenshot({ path: join(shotsDir, '20-storage-usage.png') });
    }

    await page.getByRole('tab', { name: 'Shared with me' }).click();
    await page.locator('[data-testid="doc-tile"], [role="tabpanel"] p').first().waitFor();
    expect(await usageLine().count()).toBe(0);
  });
});
