/**
 * Single sign-on from the login screen, against a real OpenID Connect provider
 * (panva's oidc-provider, run by node from backend/tests/oidc/provider.mjs) and a
 * backend of its own configured for it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, VIEWPORT, waitForPath, waitForSplash, waitForToast } from './helpers';
import { backendEnv, freePort, stopProcess } from './processes';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(webDir, '..');
const SOFIA = 'sofia.conti@sso.example.com';
const EVE = 'eve@sso.example.com';
/** Screenshots at 400 px for visual review: set E2E_SHOTS_DIR to keep them. */
const shotsDir = process.env.E2E_SHOTS_DIR;

async function shot(page: Page, name: string): Promise<void> {
  if (!shotsDir) return;
  await waitForSplash(page);
  await mkdir(shotsDir, { recursive: true });
  await page.screenshot({ path: join(shotsDir, name) });
}

/** Starts the provider; resolves with its issuer. */
function startProvider(redirectUri: string): Promise<{ child: ChildProcess; issuer: string }> {
  const accounts = {
    [SOFIA]: { sub: 'sub-sofia', email: SOFIA, email_verified: true, given_name: 'Sofia', family_name: 'Conti' },
    [EVE]: { sub: 'sub-eve', email: EVE, email_verified: false },
  };
  const child = spawn(process.execPath, [join(repoDir, 'backend/tests/oidc/provider.mjs')], {
    env: {
      ...process.env,
      OIDC_PORT: '0',
      OIDC_REDIRECT_URIS: redirectUri,
      OIDC_CLIENT_SECRET: 'e2e-client-secret',
      OIDC_ACCOUNTS: JSON.stringify(accounts),
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((done, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /issuer=(\S+)/.exec(output);
      if (match?.[1]) done({ child, issuer: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`the provider exited (${code})`)));
  });
}

async function waitForHealth(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`backend exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).status === 200) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('backend did not start');
}

describe('single sign-on', () => {
  let provider: ChildProcess | undefined;
  let backend: ChildProcess | undefined;
  let dataDir = '';
  let base = '';
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const started = await startProvider(`${base}/api/users/sso/callback`);
    provider = started.child;
    dataDir = await mkdtemp(join(tmpdir(), 'companion-sso-e2e-'));
    const env = backendEnv(port, dataDir, {
      PUBLIC_URL: base,
      OIDC_ISSUER: started.issuer,
      OIDC_CLIENT_SECRET: 'e2e-client-secret',
    });
    delete env.DEMO;
    backend = spawn(inject('backendBinary'), ['serve'], { env, stdio: 'ignore' });
    await waitForHealth(base, backend);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    context = await browser.newContext({ viewport: VIEWPORT, baseURL: base });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stopProcess(backend);
    await stopProcess(provider);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function throughTheProvider(email: string): Promise<void> {
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Login with Azure' }).click();
    // The provider's own sign-in screen, the e-mail given as login hint.
    await page.locator('input[name="login"]').waitFor();
    expect(await page.locator('input[name="login"]').inputValue()).toBe(email);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  it('signs a colleague in from the login screen and lands on the terms', async () => {
    await throughTheProvider(SOFIA);
    await waitForPath(page, '/terms');
    await page.getByRole('heading', { name: 'Terms and conditions' }).waitFor();
    // The single-use code is gone from the address and no session token ever was in it.
    expect(new URL(page.url()).search).toBe('');
    expect(await page.evaluate(() => localStorage.getItem('companion.token'))).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await shot(page, 'sso-terms.png');
  });

  it('signs out on the server from the menu: the old token no longer works', async () => {
    const token = await page.evaluate(() => localStorage.getItem('companion.token') ?? '');
    expect(token.split('.')).toHaveLength(3);
    const getData = () => fetch(`${base}/api/users/get-data`, { headers: { Authorization: `Bearer ${token}` } });
    expect((await getData()).status).toBe(200);
    // Content calls (the menu's support links among them) need the terms accepted first.
    const accepted = await fetch(`${base}/api/users/accept-terms`, { headers: { Authorization: `Bearer ${token}` } });
    expect(accepted.status).toBe(200);
    await page.goto('/menu');
    await page.getByRole('button', { name: 'Logout' }).click();
    await waitForPath(page, '/login');
    expect((await getData()).status).toBe(401);
  });

  it('brings an unverified e-mail back to the login screen with the reason', async () => {
    await context.clearCookies();
    await page.evaluate(() => localStorage.clear());
    await throughTheProvider(EVE);
    await waitForToast(page, 'Login failed: the provider has not verified this e-mail');
    await waitForPath(page, '/login');
    await shot(page, 'sso-refused.png');
  });

  it('refuses a link carrying someone else’s code or token (login CSRF)', async () => {
    await context.clearCookies();
    await page.evaluate(() => localStorage.clear());
    await page.goto('/login?token=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef');
    await waitForToast(page, 'Login failed: the sign-in link is invalid or has expired');
    await waitForPath(page, '/login');
    expect(await page.evaluate(() => localStorage.getItem('companion.token'))).toBeNull();
  });
});
