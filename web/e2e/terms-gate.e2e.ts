import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, baseURL, launchBrowser, newPage, open, PASSWORD, submitLogin, waitForPath } from './helpers';

/** The server refuses content until the current terms are accepted; the app turns that into /terms. */
describe('terms gate', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  // A new account of its own: the demo ones may have accepted the terms in other suites.
  const email = `terms.${Date.now()}@example.com`;
  const password = 'Velvet-Orchard-Bell-62';

  beforeAll(async () => {
    const login = await fetch(`${baseURL()}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ACCOUNTS.admin.email, password: PASSWORD }),
    });
    const { jwt } = (await login.json()) as { jwt: string };
    const created = await fetch(`${baseURL()}/api/admin/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
      body: JSON.stringify({ email, first_name: 'Teresa', password }),
    });
    expect(created.status).toBe(200);
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('sends a user who skips the terms back to them', async () => {
    await submitLogin(page, email, password);
    await waitForPath(page, '/terms');
    // Straight to a content screen: its calls answer 403 terms_not_accepted (the body itself
    // is checked by the API tests), and the app goes back to the terms.
    const refused = page.waitForResponse((r) => r.url().includes('/api/') && r.status() === 403);
    await open(page, '/home');
    await refused;
    await waitForPath(page, '/terms');
    await page.getByText('I accept the terms and conditions').waitFor();
  });
});
