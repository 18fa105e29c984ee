import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, launchBrowser, newPage, open, submitLogin, waitForPath } from './helpers';

/** The server refuses content until the current terms are accepted; the app turns that into /terms. */
describe('terms gate', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('sends a user who skips the terms back to them', async () => {
    await submitLogin(page, ACCOUNTS.marco.email);
    await waitForPath(page, '/terms');
    // Straight to a content screen: its calls answer 403 terms_not_accepted.
    const refused = page.waitForResponse((r) => r.url().includes('/api/home') && r.status() === 403);
    await open(page, '/home');
    const body = (await (await refused).json()) as { code?: string };
    expect(body.code).toBe('terms_not_accepted');
    await waitForPath(page, '/terms');
  });
});
