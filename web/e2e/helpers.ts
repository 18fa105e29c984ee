import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';

/** Debian's Chromium; the test tool's own browser download is not available. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const VIEWPORT = { width: 400, height: 860 };

export const PASSWORD = 'Companion-2026';

/** The demo accounts every suite relies on. */
export const ACCOUNTS = {
  anna: { email: 'anna.rossi@example.com', firstName: 'Anna' },
  john: { email: 'john.miller@example.com', firstName: 'John' },
  marco: { email: 'new.user@example.com', firstName: 'Marco' },
  admin: { email: 'admin@example.com', firstName: 'Admin' },
  auditor: { email: 'auditor@example.com', firstName: 'Audrey' },
} as const;
export type AccountName = keyof typeof ACCOUNTS;

export function baseURL(): string {
  return inject('baseURL');
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface NewPageOptions {
  /**
   * The production build registers a service worker. Suites block it by default: each checks
   * what the server answers now, and a worker installing in the background (downloading the
   * whole app) would only add load and timing noise. The offline and installability suites
   * allow it, since the worker is what they test.
   */
  serviceWorkers?: 'allow' | 'block';
}

/** A page in a fresh context (empty storage), 400 x 860, aimed at the test backend. */
export async function newPage(
  browser: Browser,
  { serviceWorkers = 'block' }: NewPageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: VIEWPORT, baseURL: baseURL(), serviceWorkers });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/**
 * One Chromium for the calling test file (or `describe` block), closed after its last test.
 * Returns a getter: the browser exists only once the `beforeAll` hook has run.
 */
export function browserPerFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('No browser yet: use it inside tests or hooks, not at the top of the file.');
    return browser;
  };
}

export interface FreshPage {
  context: BrowserContext;
  page: Page;
}

export interface PagePerTest {
  browser: () => Browser;
  /** Closes the test's context and opens a fresh one (a new visitor), handed to `onPage` again. */
  reopen: () => Promise<void>;
}

/**
 * One Chromium for the test file and, for every test, a fresh context and page (closed after
 * the test). `onPage` receives each new page: keep it in the file's variables, add listeners,
 * or sign in there.
 */
export function pagePerTest(onPage: (fresh: FreshPage) => void | Promise<void>): PagePerTest {
  const browser = browserPerFile();
  let context: BrowserContext | undefined;
  const reopen = async () => {
    await context?.close();
    const fresh = await newPage(browser());
    context = fresh.context;
    await onPage(fresh);
  };
  beforeEach(reopen);
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  return { browser, reopen };
}

/** Waits until the start-up splash screen is gone. */
export async function waitForSplash(page: Page): Promise<void> {
  await page.locator('[data-testid="splash"]').waitFor({ state: 'detached', timeout: 10_000 });
}

/** Opens an app path as a fresh load and waits for the splash to go. */
export async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForSplash(page);
}

/** Waits until the URL path is `path` (query ignored). */
export async function waitForPath(page: Page, path: string, timeout = 15_000): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, { timeout });
}

export function currentPath(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Steps 1 and 2 of the login screen with a password account; does not wait for the landing page. */
export async function submitLogin(page: Page, email: string, password = PASSWORD): Promise<void> {
  if (currentPath(page) !== '/login') await open(page, '/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Step 2/2').waitFor();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in as a demo account and waits for the landing path. */
export async function loginAs(page: Page, account: AccountName, landing = '/home'): Promise<void> {
  await submitLogin(page, ACCOUNTS[account].email);
  await waitForPath(page, landing);
}

/** Text of the visible toasts. */
export async function toastTexts(page: Page): Promise<string[]> {
  return page.locator('[data-tone]').allInnerTexts();
}

/** Waits for a toast with exactly this text. */
export async function waitForToast(page: Page, text: string): Promise<void> {
  await page.locator('[data-tone]', { hasText: text }).first().waitFor();
}

/** A JSON call of the API as `token` (none: signed out); throws on any status but 2xx. */
export async function api<T>(path: string, token: string | null, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${baseURL()}/api${path}`, {
    ...init,
    headers: {
      ...(typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** `api` with a JSON body, POST. */
export const post = <T>(path: string, token: string, body: unknown) =>
  api<T>(path, token, { method: 'POST', body: JSON.stringify(body) });

/** Signs a demo account in through the API; its session token. */
export async function tokenOf(account: keyof typeof ACCOUNTS): Promise<string> {
  const { jwt } = await post<{ jwt: string }>('/users/login', '', {
    username: ACCOUNTS[account].email,
    password: PASSWORD,
  });
  return jwt;
}

/**
 * A label without the live count a tab or menu entry may carry ("Documents 2 unread",
 * "What's New 3"): the counts depend on what earlier tests shared and published.
 */
export function withoutCount(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/ ?\d+\+?( unread)?$/, '')
    .trim();
}

/**
 * Waits until `check` holds, looking every 25 ms. Generous by default: on a machine busy with
 * other suites a reload and its new socket took over 10 s; what never comes still fails.
 */
export async function until(what: string, check: () => boolean, timeout = 30_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Asks `probe` every 250 ms until it gives a value (not null or undefined), and returns it. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | null | undefined>,
  timeout = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
