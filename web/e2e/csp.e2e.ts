import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseURL, loginAs, open, pagePerTest } from './helpers';

/**
 * The built app under the server's Content-Security-Policy: every main screen loads with no
 * violation reported, neither as a `securitypolicyviolation` event nor on the console.
 */

let context: BrowserContext;
let page: Page;
let consoleViolations: string[];

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

pagePerTest(async (fresh) => {
  ({ context, page } = fresh);
  consoleViolations = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy/i.test(text)) consoleViolations.push(text);
  });
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations?.push(`${event.violatedDirective} blocked ${event.blockedURI || '(inline)'}`);
    });
  });
});

async function violations(): Promise<string[]> {
  const events = await page.evaluate(() => window.__cspViolations ?? []);
  return [...events, ...consoleViolations];
}

/** The first id of the first list in a JSON answer of the API, signed in as the page's user. */
async function firstId(path: string): Promise<string | null> {
  return page.evaluate(async (p) => {
    const token = localStorage.getItem('companion.token');
    const response = await fetch(`/api${p}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    if (!response.ok) return null;
    const body: unknown = await response.json();
    const lists = Array.isArray(body) ? [body] : Object.values(body as Record<string, unknown>).filter(Array.isArray);
    const id = (lists[0] as Array<{ id?: string | number }> | undefined)?.[0]?.id;
    return id === undefined ? null : String(id);
  }, path);
}

describe('content security policy', () => {
  it('the app is served with the strict policy', async () => {
    const response = await page.goto('/login');
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(response?.headers()['x-content-type-options']).toBe('nosniff');
  });

  it('every main screen of a signed-in rep loads without a violation', async () => {
    await open(page, '/login');
    await loginAs(page, 'anna');
    const screens = [
      '/home',
      '/products',
      '/documents',
      '/news',
      '/congresses',
      '/training',
      '/learn',
      '/search',
      '/menu',
      '/multimedia',
    ];
    const news = await firstId('/news');
    if (news) screens.push(`/news/${news}`);
    const congress = await firstId('/congresses');
    if (congress) screens.push(`/congresses/${congress}`);
    for (const screen of screens) {
      await open(page, screen);
      // Let lazy chunks, images and the live channel load.
      await page.waitForLoadState('networkidle').catch(() => undefined);
      expect(await page.locator('#root').innerHTML(), `${screen} renders`).not.toBe('');
      expect(await violations(), `CSP violations on ${screen}`).toEqual([]);
    }
  });

  it("the PDF viewer's blob: frame and the video platform's player are allowed", async () => {
    await open(page, '/login');
    await loginAs(page, 'anna');
    await open(page, '/multimedia');
    await page.waitForLoadState('networkidle').catch(() => undefined);
    // What the in-app PDF viewer and the video modal do.
    await page.evaluate(() => {
      const pdf = new Blob(['%PDF-1.4\n%%EOF\n'], { type: 'application/pdf' });
      const viewer = document.createElement('iframe');
      viewer.src = URL.createObjectURL(pdf);
      document.body.appendChild(viewer);
      const player = document.createElement('iframe');
      player.src = 'https://video.example.com/embed/mv26031x';
      document.body.appendChild(player);
    });
    await page.waitForTimeout(500);
    expect(await violations()).toEqual([]);
  });

  it('a violation is caught when one happens (the check above can fail)', async () => {
    await open(page, '/login');
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true;';
      document.body.appendChild(script);
    });
    // A frame from a site the policy does not list.
    await page.evaluate(() => {
      const frame = document.createElement('iframe');
      frame.src = 'https://elsewhere.example.org/';
      document.body.appendChild(frame);
    });
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
    expect((await violations()).some((v) => v.startsWith('frame-src'))).toBe(true);
    expect((await violations()).length).toBeGreaterThan(0);
    expect(baseURL()).toMatch(/^http:/);
  });
});
