import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AccountName, currentPath, loginAs, open, pagePerTest, waitForPath } from './helpers';

/**
 * The search screen against the real backend and the demo content (spec 2.6):
 * the 2-character rule, ?string, search as you type, section chips, opening
 * results, the back button, the empty result and document results with their
 * action menu. With E2E_SHOTS_DIR set, screenshots at 400 px go to
 * $E2E_SHOTS_DIR/search.
 */

const shotsDir = process.env.E2E_SHOTS_DIR ? join(process.env.E2E_SHOTS_DIR, 'search') : null;

const TOO_SHORT = 'Search at least 2 characters';
const NO_RESULTS = 'Sorry, no results found :(';

/** Demo content: product 164 and news 26 both start with this word (content/catalogue, content/news). */
const BRIGHTLINE = 'brightline';
const BRIGHTLINE_PRODUCT = 'Brightline Arthroscopic Shaver';
const BRIGHTLINE_NEWS = 'Brightline arthroscopic shaver range now available in Europe';
/** Anna's own demo document (content/documents/seed.json). */
const ANNA_DOCUMENT = 'Expense policy summary';
/** A document of the US set, which John (certificate US) sees and Anna does not. */
const US_DOCUMENT = 'US Reimbursement Guide 2026';
/** Matches nothing in the demo content. */
const NONSENSE = 'xqzvwj';

let page: Page;
/** Terms sent to GET /api/search-new by the current page. */
let searched: string[] = [];

beforeAll(async () => {
  if (shotsDir) await mkdir(shotsDir, { recursive: true });
});

const session = pagePerTest((fresh) => {
  ({ page } = fresh);
  searched = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/search-new') searched.push(url.searchParams.get('term') ?? '');
  });
});

async function shot(name: string): Promise<void> {
  if (!shotsDir) return;
  await page.waitForTimeout(350);
  await page.screenshot({ path: join(shotsDir, `${name}.png`) });
}

function bar() {
  return page.getByRole('searchbox', { name: 'Search' });
}

function chips() {
  return page.getByRole('radiogroup', { name: 'Sections' }).getByRole('radio');
}

/** The result rows named exactly `name` (a text filter alone would also match longer names containing it). */
function result(name: string) {
  return page.getByTestId('search-result').filter({ has: page.getByText(name, { exact: true }) });
}

/** Signs in and opens the search screen, optionally on a term (?string). */
async function openSearch(account: AccountName, term?: string): Promise<void> {
  await loginAs(page, account);
  await open(page, term === undefined ? '/search' : `/search?${new URLSearchParams({ string: term }).toString()}`);
  await bar().waitFor();
}

/** Waits until the screen shows the outcome of a search: results or the empty result. */
async function waitForOutcome(): Promise<void> {
  await page
    .locator('[data-testid="search-results"][aria-busy="false"]')
    .or(page.getByText(NO_RESULTS, { exact: true }))
    .first()
    .waitFor();
}

/** Types a term key by key, as a user would, and waits for ?string to follow it. */
async function typeTerm(term: string): Promise<void> {
  await bar().fill('');
  await bar().pressSequentially(term, { delay: 40 });
  await page.waitForURL((url) => url.searchParams.get('string') === term.trim());
}

describe('search', () => {
  it('one character shows the message and sends no request', async () => {
    await openSearch('anna');
    await bar().pressSequentially('b');
    await page.getByText(TOO_SHORT, { exact: true }).waitFor();
    // Longer than the typing pause: a request would have gone by now.
    await page.waitForTimeout(800);
    expect(searched).toEqual([]);
    await shot('too-short');

    // Spaces do not count.
    await bar().fill(' b ');
    await page.waitForTimeout(800);
    await page.getByText(TOO_SHORT, { exact: true }).waitFor();
    expect(searched).toEqual([]);
    expect(await page.getByTestId('search-result').count()).toBe(0);

    // The second character searches.
    await bar().fill('br');
    await page.waitForURL((url) => url.searchParams.get('string') === 'br');
    await waitForOutcome();
    expect(searched).toEqual(['br']);
    expect(await page.getByText(TOO_SHORT, { exact: true }).count()).toBe(0);
  });

  it('?string pre-fills the bar and runs the search; the Home search box leads there', async () => {
    await openSearch('anna', BRIGHTLINE);
    expect(await bar().inputValue()).toBe(BRIGHTLINE);
    await result(BRIGHTLINE_PRODUCT).first().waitFor();
    expect(searched).toContain(BRIGHTLINE);

    await open(page, '/home');
    await page.getByRole('searchbox', { name: 'Search' }).fill(BRIGHTLINE);
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await waitForPath(page, '/search');
    expect(new URL(page.url()).searchParams.get('string')).toBe(BRIGHTLINE);
    await result(BRIGHTLINE_NEWS).first().waitFor();
    expect(await bar().inputValue()).toBe(BRIGHTLINE);
  });

  it('searches as the user types, keeping ?string in sync without adding history entries', async () => {
    await openSearch('anna');
    const before = await page.evaluate(() => history.length);
    // A prefix of the word: the server matches prefixes.
    await typeTerm('brightl');
    await result(BRIGHTLINE_PRODUCT).first().waitFor();
    expect(await page.evaluate(() => history.length)).toBe(before);
    // Typing paused only once the word was complete enough: not one request per key.
    expect(searched.length).toBeLessThan('brightl'.length - 1);
    expect(searched.at(-1)).toBe('brightl');
  });

  it("offers 'All' plus one chip per type, and a chip shows only its group", async () => {
    await openSearch('anna', BRIGHTLINE);
    await result(BRIGHTLINE_PRODUCT).first().waitFor();
    const labels = await chips().allInnerTexts();
    expect(labels[0]).toBe('All');
    expect(labels).toContain('Products');
    expect(labels).toContain('News');
    // One chip per group on screen, in the same order.
    const groupTypes = await page
      .getByTestId('search-group')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-type')));
    expect(labels.length).toBe(groupTypes.length + 1);
    expect(groupTypes.indexOf('products')).toBeLessThan(groupTypes.indexOf('news'));
    expect(await chips().first().getAttribute('aria-checked')).toBe('true');
    await shot('results');

    await chips()
      .filter({ hasText: /^News$/ })
      .click();
    await page.waitForURL((url) => url.searchParams.get('section') === 'news');
    await page.locator('[data-testid="search-group"][data-type="products"]').waitFor({ state: 'detached' });
    expect(await page.getByTestId('search-group').count()).toBe(1);
    expect(await page.getByTestId('search-group').getAttribute('data-type')).toBe('news');
    const rowTypes = await page
      .getByTestId('search-result')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-type')));
    expect(rowTypes.length).toBeGreaterThan(0);
    expect(rowTypes.every((type) => type === 'news')).toBe(true);
    expect(await result(BRIGHTLINE_PRODUCT).count()).toBe(0);
    await shot('news-chip');

    await chips().filter({ hasText: /^All$/ }).click();
    await page.waitForURL((url) => !url.searchParams.has('section'));
    await page.locator('[data-testid="search-group"][data-type="products"]').waitFor();
    expect(await page.getByTestId('search-group').count()).toBe(groupTypes.length);
  });

  it('a product result opens /products/detail/{id}', async () => {
    await openSearch('anna', BRIGHTLINE);
    await chips()
      .filter({ hasText: /^Products$/ })
      .click();
    await result(BRIGHTLINE_PRODUCT).first().click();
    await waitForPath(page, '/products/detail/164');
    await page.locator('h1', { hasText: BRIGHTLINE_PRODUCT }).waitFor();
  });

  it('a news result opens /news/{id}, and the browser comes back to the same results', async () => {
    await openSearch('anna');
    await typeTerm(BRIGHTLINE);
    await result(BRIGHTLINE_NEWS).first().click();
    await waitForPath(page, '/news/26');
    await page.getByText(BRIGHTLINE_NEWS).first().waitFor();

    await page.goBack();
    await waitForPath(page, '/search');
    expect(new URL(page.url()).searchParams.get('string')).toBe(BRIGHTLINE);
    expect(await bar().inputValue()).toBe(BRIGHTLINE);
    await result(BRIGHTLINE_NEWS).first().waitFor();
  });

  it('the back button clears the bar, the results and ?string', async () => {
    await openSearch('anna', BRIGHTLINE);
    await result(BRIGHTLINE_PRODUCT).first().waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL((url) => url.pathname === '/search' && !url.searchParams.has('string'));
    expect(await bar().inputValue()).toBe('');
    await page.getByTestId('search-results').waitFor({ state: 'detached' });
    expect(await page.getByTestId('search-result').count()).toBe(0);
    expect(await chips().count()).toBe(0);
    expect(currentPath(page)).toBe('/search');
  });

  it('a term that matches nothing shows the empty result word for word', async () => {
    await openSearch('anna');
    await typeTerm(NONSENSE);
    await page.getByText(NO_RESULTS, { exact: true }).waitFor();
    await page
      .getByText(`We couldn't find any matches for "${NONSENSE}". Please try with another keyword.`, { exact: true })
      .waitFor();
    expect(await page.getByTestId('search-result').count()).toBe(0);
    await shot('empty');
  });

  it("a document result opens the document's action menu", async () => {
    await openSearch('anna', 'expense');
    await chips()
      .filter({ hasText: /^Documents$/ })
      .click();
    await page.waitForURL((url) => url.searchParams.get('section') === 'documents');
    const row = result(ANNA_DOCUMENT).first();
    expect(await row.getAttribute('data-type')).toBe('documents');
    await row.click();
    const menu = page.getByRole('dialog', { name: ANNA_DOCUMENT });
    await menu.waitFor();
    const actions = (await menu.getByRole('list', { name: 'Actions' }).getByRole('button').allInnerTexts()).map((t) =>
      t.trim(),
    );
    // Anna owns it: the full menu of a file of hers.
    expect(actions.slice(0, 3)).toEqual(['Open', 'Rename', 'Download']);
    // The menu opens over the results: the screen stays.
    expect(currentPath(page)).toBe('/search');
    await shot('document-menu');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await result(ANNA_DOCUMENT).first().waitFor();
  });

  it('Move from a result offers the root unless the item is there, never its own folder', async () => {
    await openSearch('anna', 'Clinica del Lago');
    await result('Visit report - Clinica del Lago, March 2026').first().click();
    let menu = page.getByRole('dialog', { name: 'Visit report - Clinica del Lago, March 2026' });
    await menu.getByRole('button', { name: 'Move', exact: true }).click();
    let move = page.getByRole('dialog', { name: 'Move' });
    await move.getByRole('radio', { name: '2026' }).waitFor();
    // In Customer visits / 2026: the root is a destination, its own folder is not.
    expect(await move.getByRole('radio', { name: 'My docs' }).isDisabled()).toBe(false);
    expect(await move.getByRole('radio', { name: '2026' }).isDisabled()).toBe(true);
    expect(await move.getByRole('radio', { name: 'Customer visits' }).isDisabled()).toBe(false);
    await page.keyboard.press('Escape');
    await move.waitFor({ state: 'detached' });

    await open(page, '/search?string=expense');
    await result(ANNA_DOCUMENT).first().click();
    menu = page.getByRole('dialog', { name: ANNA_DOCUMENT });
    await menu.getByRole('button', { name: 'Move', exact: true }).click();
    move = page.getByRole('dialog', { name: 'Move' });
    await move.getByRole('radio', { name: 'Customer visits' }).waitFor();
    // At the root already: the root is no destination.
    expect(await move.getByRole('radio', { name: 'My docs' }).isDisabled()).toBe(true);
  });

  it('John finds a US document; Anna does not', async () => {
    await openSearch('john', 'reimbursement');
    await result(US_DOCUMENT).first().click();
    const menu = page.getByRole('dialog', { name: US_DOCUMENT });
    await menu.waitFor();
    await menu.getByRole('button', { name: 'Open' }).waitFor();
    await page.keyboard.press('Escape');
    await session.reopen();
    await openSearch('anna', 'reimbursement');
    await waitForOutcome();
    expect(await result(US_DOCUMENT).count()).toBe(0);
  });
});
