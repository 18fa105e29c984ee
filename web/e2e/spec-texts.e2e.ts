import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ACCOUNTS, loginAs, open, pagePerTest, toastTexts, waitForPath, waitForToast } from './helpers';

/** Messages (survey), the login screen's own validation toasts and links, tab order by response. */

let page: Page;

pagePerTest((fresh) => {
  ({ page } = fresh);
});

describe('messages', () => {
  it('Anna answers a survey message; it shows as answered with her reply', async () => {
    await loginAs(page, 'anna');
    await open(page, '/new');
    const title = 'Alpine Arthroplasty Meeting: your feedback';
    const row = page.getByRole('region', { name: 'Messages' }).getByRole('button', { name: new RegExp(title) });
    await row.waitFor();
    expect(await row.getAttribute('class')).toMatch(/unread/);
    await row.click();

    const dialog = page.getByRole('dialog', { name: title });
    await dialog.getByText('Thank you for staffing the').waitFor();
    const send = dialog.getByRole('button', { name: 'Send' });
    expect(await send.isDisabled()).toBe(true);
    const answer = dialog.getByLabel('Which booth activity brought the most surgeon conversations?');
    await answer.fill('The live reverse-shoulder demo on the saw bone.');
    await send.click();
    await waitForToast(page, 'Thank you, your answer has been sent');
    await dialog.waitFor({ state: 'detached' });

    await row.getByText('Answered').waitFor();
    await row.click();
    expect(await page.getByTestId('message-answer').innerText()).toBe(
      'The live reverse-shoulder demo on the saw bone.',
    );
    expect(await page.getByRole('dialog', { name: title }).getByRole('button', { name: 'Send' }).count()).toBe(0);
  });

  it('a message round from ?roundId= lists only that round', async () => {
    await loginAs(page, 'anna');
    await open(page, '/new?roundId=1');
    const region = page.getByRole('region', { name: 'Messages' });
    await region.getByRole('button', { name: /Two minutes on the product catalogue/ }).waitFor();
    expect(await region.getByRole('button', { name: /Results of the catalogue survey/ }).count()).toBe(0);
  });

  it("shows 'Failed to get messages' when they cannot be loaded", async () => {
    await loginAs(page, 'anna');
    await page.route(/\/api\/messages(\?|$)/, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
    );
    await open(page, '/new');
    await waitForToast(page, 'Failed to get messages');
    // The notifications still show.
    await page
      .getByTestId(/^notification-\d+$/)
      .first()
      .waitFor();
  });
});

describe('login', () => {
  it("uses the app's own toasts for a missing e-mail, a bad e-mail and a missing password", async () => {
    await open(page, '/login');
    await page.getByRole('button', { name: 'Next' }).click();
    await waitForToast(page, 'Please enter your e-mail address');
    await page.getByLabel('E-mail').fill('not-an-address');
    await page.getByRole('button', { name: 'Next' }).click();
    await waitForToast(page, 'Please enter a valid e-mail address');
    expect(await page.getByText('Step 1/2').count()).toBe(1);

    await page.getByLabel('E-mail').fill(ACCOUNTS.anna.email);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 2/2').waitFor();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForToast(page, 'Please enter your password');
    expect(await toastTexts(page)).toContain('Please enter your password');
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('links the external Privacy Policy of the content', async () => {
    await open(page, '/login');
    const privacy = page.getByRole('link', { name: 'Privacy Policy' });
    expect(await privacy.getAttribute('href')).toBe('https://www.meridian-ortho.example/privacy');
    expect(await privacy.getAttribute('target')).toBe('_blank');
  });
});

describe('programme tabs', () => {
  it('follow the order of the response', async () => {
    await loginAs(page, 'anna');
    // The server sends the content's order; a different order in the response is kept as is.
    await page.route(/\/api\/congresses\/1$/, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { tab_order: string[] };
      body.tab_order = ['contacts', 'downloads', 'info', 'details', 'hotel', 'day', 'activities', 'messages', 'media'];
      await route.fulfill({ response, json: body });
    });
    await open(page, '/congresses/1');
    await page.getByRole('tablist', { name: 'Sections' }).waitFor();
    expect(await page.getByRole('tablist', { name: 'Sections' }).getByRole('tab').allInnerTexts()).toEqual([
      'Contacts',
      'Downloads',
      'Info',
      'Details',
      'Hotel & Transfer',
      'Day by day',
      'Activities',
      'Key messages',
      'Media',
    ]);
    await waitForPath(page, '/congresses/1');
  });
});

describe('guided tour', () => {
  it("an info button opens the tour at its screen's step; the steps lead to their screens", async () => {
    await loginAs(page, 'anna');
    await open(page, '/documents');
    await page.getByRole('button', { name: 'Info' }).click();
    await waitForPath(page, '/wizard');
    expect(new URL(page.url()).searchParams.get('screen')).toBe('documents');
    const step = page.getByTestId('guide-step');
    await step.getByRole('heading', { name: 'Documents' }).waitFor();
    expect(await step.getByText(/^Step \d+ of \d+$/).innerText()).toMatch(/^Step 3 of \d+$/i);
    await step.getByRole('button', { name: 'Next' }).click();
    await step.getByRole('heading', { name: 'Search' }).waitFor();
    await step.getByRole('button', { name: 'Go to Search' }).click();
    await waitForPath(page, '/search');
  });
});
