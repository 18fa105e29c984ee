import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginAs, open, pagePerTest, waitForPath, withoutCount } from './helpers';

/**
 * Accessibility: axe (every rule it runs by default, WCAG and best practice) finds nothing on
 * the main screens, their menus and the PDF viewer; the tab bar, modals and action menus work
 * from the keyboard.
 */

let page: Page;

pagePerTest((fresh) => {
  ({ page } = fresh);
});

/** Axe's findings on the page as it is now, one line each (rule and element). */
async function violations(p: Page): Promise<string[]> {
  // Colours are judged once the opening animations (fade, rise) are over.
  await p.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const result = await new AxeBuilder({ page: p }).analyze();
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

/** Waits until the screen's title is shown and nothing is loading any more. */
async function settled(p: Page): Promise<void> {
  await p.locator('h1').first().waitFor();
  await p.locator('[role="progressbar"]').first().waitFor({ state: 'detached' });
  // Images and late lists settle (carousels, lazy chunks).
  await p.waitForLoadState('networkidle');
}

const SIGNED_IN_SCREENS = [
  '/home',
  '/products',
  '/products/1',
  '/products/detail/1',
  '/products/detail/1/documents',
  '/products/detail/component/1',
  '/documents',
  '/search?string=knee',
  '/menu',
  '/new',
  '/new?section=updates',
  '/news',
  '/news/1',
  '/congresses',
  '/congresses/1',
  '/congresses/activities/1',
  '/training',
  '/training/1',
  '/learn',
  '/learn/1',
  '/contacts',
  '/useful',
  '/multimedia',
  '/wizard',
];

describe('axe finds no violation', () => {
  it('on the login screen and the privacy page (signed out)', async () => {
    for (const path of ['/login', '/privacy']) {
      await open(page, path);
      await settled(page);
      expect(await violations(page), path).toEqual([]);
    }
  });

  // Four screens a test: each part has its own time, so a busy machine slows it without failing it.
  const parts = Array.from({ length: Math.ceil(SIGNED_IN_SCREENS.length / 4) }, (_, i) =>
    SIGNED_IN_SCREENS.slice(i * 4, i * 4 + 4),
  );
  it.each(parts)(
    'on the main screens (signed in): %s, %s, %s, %s',
    async (...paths) => {
      await loginAs(page, 'anna');
      for (const path of paths) {
        await open(page, path);
        await settled(page);
        expect(await violations(page), path).toEqual([]);
      }
    },
    180_000,
  );

  it('with an action menu, the support modal and the PDF viewer open', async () => {
    await loginAs(page, 'anna');
    await open(page, '/products');
    await settled(page);
    await page.getByRole('button', { name: /Product Range Overview 2026/ }).click();
    const menu = page.getByRole('dialog', { name: 'Product Range Overview 2026' });
    await menu.waitFor();
    expect(await violations(page), 'document menu').toEqual([]);
    await menu.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('img', { name: 'Page 1 of 2' }).waitFor();
    expect(await violations(page), 'viewer').toEqual([]);
    await page.keyboard.press('Escape');

    await open(page, '/contacts');
    await settled(page);
    await page.getByRole('button', { name: 'Support' }).click();
    await page.getByRole('dialog', { name: 'Support' }).waitFor();
    expect(await violations(page), 'support').toEqual([]);
  });
});

describe('keyboard', () => {
  it('moves through the tab bar and opens a tab with Enter', async () => {
    await loginAs(page, 'anna');
    await settled(page);
    const tabs = page.getByRole('navigation', { name: 'Main' });
    await tabs.getByRole('link', { name: 'Home' }).focus();
    for (const name of ['Products', 'Documents', 'Search', 'Menu']) {
      await page.keyboard.press('Tab');
      expect(withoutCount(await page.evaluate(() => document.activeElement?.textContent ?? ''))).toBe(name);
    }
    await page.keyboard.press('Enter');
    await waitForPath(page, '/menu');
  });

  it('opens an action menu, keeps focus in it, opens the viewer and comes back with Escape', async () => {
    await loginAs(page, 'anna');
    await open(page, '/congresses/1?tab=downloads');
    const row = page.getByRole('button', { name: /Alpine Arthroplasty Meeting 2026: Programme/ });
    await row.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('dialog', { name: 'Alpine Arthroplasty Meeting 2026: Programme' });
    await menu.waitFor();
    // Focus stays inside the menu: Close, the "Available offline" switch, Open, Download, then back
    // to Close. A form control's name is its label.
    const focused = async () =>
      page.evaluate(() => {
        const element = document.activeElement;
        const label = element instanceof HTMLInputElement ? element.labels?.[0]?.textContent?.trim() : undefined;
        return label || element?.textContent?.trim() || element?.getAttribute('aria-label');
      });
    const seen: (string | null | undefined)[] = [];
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      seen.push(await focused());
    }
    expect(seen).toEqual(['Close', 'Available offline', 'Open', 'Download', 'Close']);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Open');
    await page.keyboard.press('Enter');
    await page.getByRole('img', { name: /^Page 1 of \d+$/ }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('pdf-viewer').waitFor({ state: 'detached' });

    // A modal closed with Escape gives the focus back.
    await row.focus();
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toContain(
      'Alpine Arthroplasty Meeting 2026: Programme',
    );
  });
});
