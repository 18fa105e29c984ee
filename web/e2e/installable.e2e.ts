import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, CHROMIUM_ARGS, CHROMIUM_PATH, VIEWPORT, waitForSplash } from './helpers';

/**
 * Chromium's own verdict on installability (the checks behind its install prompt): a manifest
 * with a name, large enough icons, standalone display and a start URL, on a page controlled by a
 * service worker. A persistent profile: Chromium never offers to install from an incognito
 * context, which is what `browser.newContext()` gives.
 */

let profile: string;
let context: BrowserContext;

beforeAll(async () => {
  profile = await mkdtemp(join(tmpdir(), 'companion-install-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    viewport: VIEWPORT,
    baseURL: baseURL(),
    serviceWorkers: 'allow',
  });
});

afterAll(async () => {
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

describe('installable web app', () => {
  it('has a manifest Chromium accepts and no installability errors', async () => {
    const page = await context.newPage();
    await page.goto('/login');
    await waitForSplash(page);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // Installability asks for a page the worker controls.
    await page.reload();
    await waitForSplash(page);
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
    expect(manifest.errors).toEqual([]);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
  });

  it('serves the service worker and manifest for revalidation on every load', async () => {
    const sw = await context.request.get('/sw.js');
    expect(sw.headers()['cache-control']).toBe('no-cache');
    const manifest = await context.request.get('/manifest.webmanifest');
    expect(manifest.headers()['content-type']).toBe('application/manifest+json');
    const body = (await manifest.json()) as { display: string; start_url: string; icons: { sizes: string }[] };
    expect(body.display).toBe('standalone');
    expect(body.start_url).toBe('/');
    expect(body.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  });
});
