import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import { ACCOUNTS, browserPerFile, loginAs, newPage, open, submitLogin, waitForPath } from './helpers';

/** Screenshots at 400 px for visual review: set E2E_SHOTS_DIR to take them. */
const shotsDir = process.env.E2E_SHOTS_DIR;

describe.skipIf(!shotsDir)('screenshots', () => {
  const browser = browserPerFile();
  const dir = shotsDir ?? '';

  beforeAll(async () => {
    await mkdir(dir, { recursive: true });
  });

  it('login, home, menu, privacy', async () => {
    const { context, page } = await newPage(browser());
    await open(page, '/login');
    await page.screenshot({ path: join(dir, 'login-step1.png') });
    await page.getByLabel('E-mail').fill(ACCOUNTS.anna.email);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.screenshot({ path: join(dir, 'login-step2.png') });
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByLabel('E-mail').fill('someone@sso.example.com');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Login with Azure' }).waitFor();
    await page.screenshot({ path: join(dir, 'login-sso.png') });
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByLabel('E-mail').fill(ACCOUNTS.anna.email);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('[data-tone]').first().waitFor();
    await page.screenshot({ path: join(dir, 'login-failed.png') });

    await open(page, '/login');
    await loginAs(page, 'anna');
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(dir, 'home.png') });
    await open(page, '/menu');
    await page.screenshot({ path: join(dir, 'menu.png') });
    await page.mouse.wheel(0, 800);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(dir, 'menu-bottom.png') });
    await page.getByRole('button', { name: 'Support' }).click();
    await page.getByRole('dialog').waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(dir, 'support.png') });
    await open(page, '/documents');
    await page.screenshot({ path: join(dir, 'documents.png') });
    await open(page, '/privacy');
    await page.screenshot({ path: join(dir, 'privacy.png') });
    await context.close();
  });

  it('splash, terms and onboarding', async () => {
    const { context, page } = await newPage(browser());
    // The demo user may have accepted the terms in an earlier suite: show the first-run flow anyway.
    await page.route('**/api/users/login', async (route) => {
      const response = await route.fetch();
      const json = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: { ...json, need_accept_terms: true, onboarding: true } });
    });
    await page.goto('/login');
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(dir, 'splash.png') });
    await submitLogin(page, ACCOUNTS.marco.email);
    await waitForPath(page, '/terms');
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(dir, 'terms.png') });
    await page.getByText('I accept the terms and conditions').click();
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(dir, 'terms-accepted.png') });
    await page.screenshot({ path: join(dir, 'terms-full.png'), fullPage: true });
    await page.getByRole('button', { name: 'Next' }).click();
    await waitForPath(page, '/onboarding');
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(dir, 'onboarding.png') });
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(dir, 'onboarding-sliding.png') });
    await context.close();
  });
  it('PDF viewer, programme downloads, messages and the guided tour', async () => {
    const { context, page } = await newPage(browser());
    await loginAs(page, 'anna');
    await open(page, '/congresses/1?tab=downloads');
    await page
      .getByRole('button', { name: /Programme/ })
      .first()
      .waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(dir, 'congress-downloads.png') });
    await page
      .getByRole('button', { name: /Programme/ })
      .first()
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Open' }).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(dir, 'document-menu.png') });

    await open(page, '/products');
    await page.getByRole('button', { name: /Product Range Overview 2026/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Open' }).click();
    await page.getByRole('img', { name: 'Page 1 of 2' }).waitFor();
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(dir, 'pdf-viewer.png') });
    const viewer = page.getByTestId('pdf-viewer');
    await viewer.getByLabel('Search in document').fill('shoulder');
    await viewer.getByRole('button', { name: 'Find' }).click();
    await page.getByTestId('pdf-match-active').waitFor();
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(dir, 'pdf-viewer-search.png') });
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(dir, 'pdf-viewer-zoom.png') });
    await viewer.getByRole('button', { name: 'Fit to width' }).click();
    await viewer.getByRole('button', { name: 'Next page' }).click();
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(dir, 'pdf-viewer-page2.png') });

    await open(page, '/new');
    await page.getByRole('region', { name: 'Messages' }).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(dir, 'messages.png') });
    await page.getByRole('region', { name: 'Messages' }).getByRole('button').first().click();
    await page.getByRole('dialog').waitFor();
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(dir, 'message-survey.png') });

    await open(page, '/documents');
    await page.getByRole('button', { name: 'Info' }).click();
    await page.getByTestId('guide-step').waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(dir, 'wizard.png') });
    await context.close();
  });
});
