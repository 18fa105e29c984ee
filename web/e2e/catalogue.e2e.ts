import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentPath, loginAs, open, pagePerTest, waitForPath, waitForToast } from './helpers';

/** Screenshots at 400 px for visual review (set E2E_SHOTS_DIR). */
const shotsDir = process.env.E2E_SHOTS_DIR ? join(process.env.E2E_SHOTS_DIR, 'catalogue') : null;

let page: Page;

async function shot(name: string, fullPage = false): Promise<void> {
  if (!shotsDir) return;
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(shotsDir, `${name}.png`), fullPage });
}

beforeAll(async () => {
  if (shotsDir) await mkdir(shotsDir, { recursive: true });
});

pagePerTest(async (fresh) => {
  ({ page } = fresh);
  await loginAs(page, 'anna');
});

describe('catalogue', () => {
  it('Home -> a product -> its in-depth page -> a component, and back', async () => {
    await page.getByTestId('home-segment').first().waitFor();
    expect(await page.getByTestId('home-segment').count()).toBe(6);
    expect(await page.getByTestId('home-news').count()).toBeGreaterThan(0);
    await shot('home');

    // Home -> Shoulder segment -> Anatomic Shoulder -> Arcadia.
    await page.getByTestId('home-segment').filter({ hasText: 'Shoulder' }).first().click();
    await waitForPath(page, '/products/1');
    await page.getByRole('link', { name: /Anatomic Shoulder/ }).click();
    await waitForPath(page, '/products/category/37');
    await page.getByRole('link', { name: /Arcadia Anatomic Shoulder System/ }).click();
    await waitForPath(page, '/products/detail/101');
    await page.locator('h1', { hasText: 'Arcadia Anatomic Shoulder System' }).waitFor();
    await page.getByRole('button', { name: 'Read more' }).waitFor();
    await shot('product');
    await shot('product-full', true);
    await page.getByRole('button', { name: 'Read more' }).click();
    await page.getByRole('button', { name: 'Read less' }).waitFor();

    // The in-depth carousel leads to the page at a tab and an anchor.
    await page.getByRole('link', { name: 'A stem built for conversion' }).click();
    await waitForPath(page, '/products/detail/101/indepth/details/platform-taper');
    const sectionLinks = page.getByRole('navigation', { name: 'In-depth sections' }).getByRole('link');
    await sectionLinks.first().waitFor();
    const tabs = await sectionLinks.allInnerTexts();
    expect(tabs).toEqual(['Overview', 'Design', 'Surgical steps', 'Clinical evidence', 'Resources', 'FAQ']);
    expect(await page.getByTestId('indepth-section').getAttribute('data-path')).toBe('details');
    await page.locator('#feature-platform-taper').waitFor();
    await shot('indepth');
    await page.getByRole('button', { name: 'Back' }).click();
    await waitForPath(page, '/products/detail/101');

    // Components -> a component -> back to the components list -> back to the product.
    await page.getByRole('link', { name: 'Components' }).click();
    await waitForPath(page, '/products/detail/101/components');
    await page.getByRole('link', { name: /Arcadia Humeral Stem/ }).click();
    await waitForPath(page, '/products/detail/component/1001');
    await page.getByText('Material').waitFor();
    expect(await page.getByTestId('sterility').innerText()).toBe('Sterile');
    expect(await page.getByText('upon request').count()).toBeGreaterThan(0);
    await shot('component');
    await shot('component-full', true);
    await page.getByRole('button', { name: 'Back' }).click();
    await waitForPath(page, '/products/detail/101/components');
    await page.getByRole('button', { name: 'Back' }).click();
    await waitForPath(page, '/products/detail/101');
    // The product goes back to its category, the category to its segment.
    await page.getByRole('button', { name: 'Back' }).click();
    await waitForPath(page, '/products/category/37');
    await page.getByRole('button', { name: 'Back' }).click();
    await waitForPath(page, '/products/1');
  });

  it('the Shoulder segment shows categories 37 and 42 first, then the rest, and #ThinkClinical', async () => {
    await open(page, '/products/1');
    const groups = page.getByTestId('segment-group');
    await groups.first().waitFor();
    expect(await groups.count()).toBe(2);
    expect(await groups.nth(0).getByTestId('product-list-item').allInnerTexts()).toEqual([
      'Anatomic Shoulder',
      'Reverse Shoulder',
    ]);
    const rest = await groups.nth(1).getByTestId('product-list-item').allInnerTexts();
    expect(rest.map((t) => t.split('\n').pop())).toEqual([
      'Planning & Guides',
      'Revision & Conversion',
      'Fracture Solutions',
    ]);
    expect(rest[0]?.toLowerCase()).toContain('limited release');
    await page.getByRole('button', { name: '#ThinkClinical' }).click();
    await page.getByRole('button', { name: /#ThinkClinical: Glenoid bone loss/ }).waitFor();
    await shot('segment-shoulder', true);

    // Another segment is one list.
    await open(page, '/products/2');
    await page.getByTestId('segment-group').first().waitFor();
    expect(await page.getByTestId('segment-group').count()).toBe(1);
  });

  it('in-depth tabs follow the fixed order whatever the content order', async () => {
    // Product 107 lists its sections as details, info, training, download.
    await open(page, '/products/detail/107/indepth');
    await page.getByTestId('indepth-section').waitFor();
    const tabs = page.getByRole('navigation', { name: 'In-depth sections' }).getByRole('link');
    const hrefs = await tabs.evaluateAll((els) => els.map((e) => e.getAttribute('href')?.split('/').pop()));
    expect(hrefs).toEqual(['info', 'details', 'download', 'training']);
    expect(await page.getByTestId('indepth-section').getAttribute('data-path')).toBe('info');
  });

  it('a missing segment or product shows an error and goes back to /products', async () => {
    await open(page, '/products/999');
    await waitForToast(page, 'An error occurred while getting all the informations');
    await waitForPath(page, '/products');
    await open(page, '/products/detail/999');
    await waitForPath(page, '/products');
  });

  it('category filters (order, subcategory) apply from the Filters modal and reload', async () => {
    await open(page, '/products/category/37');
    await page.getByTestId('product-list-item').first().waitFor();
    await page.getByRole('button', { name: 'Filters' }).click();
    const dialog = page.getByRole('dialog', { name: 'Filters' });
    await dialog.getByLabel('Order').selectOption('za');
    await dialog.getByLabel('Subcategory').selectOption('stemmed');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL((url) => url.search === '?order=za&subcategory=stemmed');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="product-list-item"]').length === 1);
    expect(await page.getByTestId('product-list-item').innerText()).toContain('Arcadia Anatomic Shoulder System');
  });

  it('news defaults to the current year in the URL and filters by last year', async () => {
    const year = new Date().getFullYear();
    await open(page, '/news');
    await page.waitForURL((url) => url.searchParams.get('year') === String(year));
    await page.getByTestId('news-list').waitFor();
    const current = await page
      .locator('[data-testid="news-list"] time')
      .evaluateAll((els) => els.map((e) => e.getAttribute('datetime')));
    expect(current.every((d) => d?.startsWith(String(year)))).toBe(true);

    await page.getByRole('button', { name: 'Filters' }).click();
    const dialog = page.getByRole('dialog', { name: 'Filters' });
    await dialog.getByLabel('Year').selectOption(String(year - 1));
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL((url) => url.searchParams.get('year') === String(year - 1));
    await page.waitForFunction(
      (y) => {
        const times = Array.from(document.querySelectorAll<HTMLTimeElement>('[data-testid="news-list"] time'));
        return times.length > 0 && times.every((t) => t.getAttribute('datetime')?.startsWith(y));
      },
      String(year - 1),
    );
    await shot('news-last-year');
    await page.locator('[data-testid="news-list"] a').first().click();
    await page.waitForURL((url) => /^\/news\/\d+$/.test(url.pathname));
    // The detail page loads on demand: until it shows, 'Back' is still the list's own.
    await page.locator('article h2').waitFor();
    await shot('news-detail');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL((url) => url.pathname === '/news');
  });

  it('a contact entry opens a modal with only its present fields', async () => {
    await open(page, '/contacts');
    await page.getByRole('tab', { name: 'Headquarters' }).waitFor();
    await page.getByRole('button', { name: /Meridian Orthopaedics Headquarters/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('link', { name: '+39 02 5550 1000' }).waitFor();
    expect(await dialog.getByRole('link', { name: '+39 02 5550 1000' }).getAttribute('href')).toBe('tel:+390255501000');
    expect(await dialog.getByRole('link', { name: 'info@meridian-ortho.example' }).getAttribute('href')).toBe(
      'mailto:info@meridian-ortho.example',
    );
    expect(await dialog.getByText('Fax').count()).toBe(1);
    await shot('contact-modal');
    await dialog.getByRole('button', { name: 'Close' }).click();

    // App Support has an e-mail only.
    await page.getByRole('button', { name: /App Support/ }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'app.support@meridian-ortho.example' }).waitFor();
    expect(await page.getByRole('dialog').getByText('Phone').count()).toBe(0);
    expect(await page.getByRole('dialog').getByText('Address').count()).toBe(0);
  });

  it('useful links are shortened and open in a new window; multimedia shows videos and images', async () => {
    await open(page, '/useful');
    const link = page.getByRole('link', { name: /Loan set request form/ });
    await link.waitFor();
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.innerText()).toContain('https://forms.meridian-ortho.e...');
    await shot('useful');

    await open(page, '/multimedia');
    await page.getByTestId('hero-video').waitFor();
    await shot('multimedia-videos');
    await page.getByTestId('hero-video').click();
    await page.getByTestId('video-player').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'Images' }).click();
    await page.getByTestId('image-grid').waitFor();
    await shot('multimedia-images');
    await page.getByTestId('image-grid').getByRole('button').first().click();
    await page.getByTestId('image-gallery').waitFor();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect(await page.getByTestId('image-gallery').locator('img').getAttribute('data-zoom')).toBe('2');
    expect(currentPath(page)).toBe('/multimedia');
  });
});
