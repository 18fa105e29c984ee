import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, open } from './helpers';

/**
 * Chromium's own verdict on installability (the checks behind its install prompt): a manifest
 * with a name, icons of 144 px and more, standalone display and a start URL, served from a page
 * controlled by a service worker.
 */

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('installable web app', () => {
  it('has a manifest Chromium accepts and no installability errors', async () => {
    const { context, page } = await newPage(browser, { serviceWorkers: 'allow' });
    try {
      await open(page, '/login');
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      const cdp = await context.newCDPSession(page);
      const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
      expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
      expect(manifest.errors).toEqual([]);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: { errorId: string }[];
      };
      expect(installabilityErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('serves the service worker and manifest for revalidation on every load', async () => {
    const { context, page } = await newPage(browser);
    try {
      const sw = await page.request.get('/sw.js');
      expect(sw.headers()['cache-control']).toBe('no-cache');
      const manifest = await page.request.get('/manifest.webmanifest');
      expect(manifest.headers()['content-type']).toBe('application/manifest+json');
      const body = (await manifest.json()) as { display: string; start_url: string; icons: { sizes: string }[] };
      expect(body.display).toBe('standalone');
      expect(body.start_url).toBe('/');
      expect(body.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    } finally {
      await context.close();
    }
  });
});
