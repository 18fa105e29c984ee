import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, baseURL, launchBrowser, newPage, open, PASSWORD, submitLogin, waitForToast } from './helpers';

const PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

/** The menu's "Signed-in devices": a user sees where they are signed in and signs another device out. */
describe('signed-in devices', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  // An account of its own: ending sessions must not sign other suites out.
  const email = `devices.${Date.now()}@example.com`;
  const password = 'Copper-Harbour-Kite-47';
  let phoneToken = '';

  const signIn = async (agent?: string) => {
    const response = await fetch(`${baseURL()}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(agent ? { 'user-agent': agent } : {}) },
      body: JSON.stringify({ username: email, password }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { jwt: string }).jwt;
  };

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
      body: JSON.stringify({ email, first_name: 'Dina', last_name: 'Vos', password }),
    });
    expect(created.status).toBe(200);
    phoneToken = await signIn(PHONE);
    const accepted = await fetch(`${baseURL()}/api/users/accept-terms`, {
      headers: { authorization: `Bearer ${phoneToken}` },
    });
    expect(accepted.status).toBe(200);
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('lists this device and another one, and signs the other one out', async () => {
    await submitLogin(page, email, password);
    await page.waitForURL((url) => url.pathname !== '/login');
    await open(page, '/menu');
    await page.getByRole('link', { name: 'Signed-in devices' }).click();
    await page.getByRole('heading', { name: 'Signed-in devices' }).waitFor();

    const list = page.getByRole('list', { name: 'Signed-in devices' });
    await list.getByRole('listitem').nth(1).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(2);
    await list.getByText('This device').waitFor();
    await list.getByText('Chrome on Android').waitFor();
    expect(await list.getByText(/^Last used /).count()).toBe(2);
    // This device is signed out with the menu's Logout, not from here.
    expect(await list.getByRole('button').count()).toBe(1);
    if (process.env.SCREENSHOT_DIR) {
      await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/signed-in-devices.png`, fullPage: true });
    }

    await page.getByRole('button', { name: 'Sign out Chrome on Android' }).click();
    await waitForToast(page, 'Signed out on that device');
    await list.getByText('Chrome on Android').waitFor({ state: 'detached' });
    expect(await list.getByRole('listitem').count()).toBe(1);
    const refused = await fetch(`${baseURL()}/api/users/get-data`, {
      headers: { authorization: `Bearer ${phoneToken}` },
    });
    expect(refused.status).toBe(401);
  });
});
