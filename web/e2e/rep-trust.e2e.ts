import AxeBuilder from '@axe-core/playwright';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNTS,
  loginAs,
  open,
  pagePerTest,
  PASSWORD,
  submitLogin,
  toastTexts,
  waitForPath,
  waitForToast,
} from './helpers';

/**
 * A rep can trust what the app says: past courses say they have ended and offer no Register
 * (the server reads its course calendar on 1 March 2026, see global-setup), the registration
 * form says what blocks Register, every document action is confirmed and an error leaves once
 * the action succeeds or the screen changes, What's New leads with the notifications, and the
 * main screens pass axe with every control at least 44 x 44 px.
 */

/** Screenshots at 400 px for review when E2E_SHOTS_DIR is set. */
const shotsDir = process.env.E2E_SHOTS_DIR ? join(process.env.E2E_SHOTS_DIR, 'rep-trust') : null;

const stamp = Date.now().toString(36).slice(-5);

let page: Page;

beforeAll(async () => {
  if (shotsDir) await mkdir(shotsDir, { recursive: true });
});

pagePerTest((fresh) => {
  ({ page } = fresh);
});

async function shot(name: string, fullPage = false): Promise<void> {
  if (!shotsDir) return;
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(shotsDir, `${name}.png`), fullPage });
}

/** The texts of the error (danger) toasts on screen. */
async function errorToasts(p: Page): Promise<string[]> {
  return p.locator('[data-tone="danger"]').allInnerTexts();
}

/** Waits until the screen's title is shown and nothing is loading any more. */
async function settled(p: Page): Promise<void> {
  await p.locator('h1').first().waitFor();
  await p.locator('[role="progressbar"]').first().waitFor({ state: 'detached' });
  await p.waitForLoadState('networkidle');
  await p.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

/**
 * The visible interactive elements smaller than 44 x 44 px, one line each. Links inside running
 * text are left out (their size is the text's, as WCAG 2.5.8 allows); a control inside a label
 * counts by the label's box, which is what a finger hits.
 */
async function smallTargets(p: Page): Promise<string[]> {
  return p.evaluate(() => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="tab"], [role="link"], [tabindex]:not([tabindex="-1"])';
    const found: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || el.closest('[aria-hidden="true"], [inert]')) {
        continue;
      }
      let box = el.getBoundingClientRect();
      // Hidden by clipping (visually hidden file inputs, skip links): nothing to tap.
      if (box.width < 2 || box.height < 2) continue;
      if (el.tagName === 'A' && style.display === 'inline' && el.closest('p, li, td')) continue;
      const label = el.closest('label');
      if (label && label !== el) box = label.getBoundingClientRect();
      // Allow for sub-pixel layout.
      if (box.width + 0.5 < 44 || box.height + 0.5 < 44) {
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
        found.push(
          `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`,
        );
      }
    }
    return found;
  });
}

async function axeViolations(p: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page: p }).analyze();
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

describe('courses in time', () => {
  it('a past course shows as ended, with no Register, and the list opens on what is coming', async () => {
    await loginAs(page, 'anna');
    await open(page, '/learn?year=2026');
    const cards = page.getByTestId('course-card');
    await cards.first().waitFor();
    // Course 2 (25 February) has taken place; course 1 (19-20 March) is the first to come.
    const past = page.locator('a[href="/learn/2"]');
    expect(await past.getAttribute('data-ended')).toBe('true');
    expect(await past.getByTestId('ended').innerText()).toMatch(/ended/i);
    const next = page.locator('a[href="/learn/1"]');
    expect(await next.getAttribute('data-ended')).toBe('false');
    expect(await next.getByTestId('ended').count()).toBe(0);
    expect(await page.locator('[data-upcoming="first"] a').getAttribute('href')).toBe('/learn/1');
    await page.getByTestId('coming-up').waitFor();
    // Opened on what is coming: the first course to come is at the top of the screen, the past
    // one above it, scrolled away.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const top = await next.evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(300);
    await shot('learn-list-opens-on-coming');

    await past.click();
    await waitForPath(page, '/learn/2');
    await page.getByTestId('course-ended-note').waitFor();
    expect(await page.getByRole('button', { name: /^Register/ }).count()).toBe(0);
    await shot('course-ended-info');
    // A course of 2025 with an agenda: no day offers Register, each says it has ended.
    await open(page, '/learn/15');
    await page.getByTestId('course-ended-note').waitFor();
    expect(await page.getByRole('button', { name: 'Register to this course' }).count()).toBe(0);
    await page.getByRole('tab', { name: 'Agenda' }).click();
    await page
      .getByText(/08:30|09:00|\d\d:\d\d/)
      .first()
      .waitFor();
    expect(await page.getByRole('button', { name: /^Register/ }).count()).toBe(0);
    expect(await page.getByTestId('ended').count()).toBeGreaterThan(1);
    await shot('course-ended-agenda');

    // A course to come still offers Register.
    await open(page, '/learn/1');
    await page.getByRole('button', { name: 'Register to this course' }).waitFor();
    expect(await page.getByTestId('course-ended-note').count()).toBe(0);
  });

  it('the registration form says what blocks Register and checks the e-mail as it is typed', async () => {
    await loginAs(page, 'anna');
    await open(page, '/learn/3');
    await page.getByRole('button', { name: 'Register to this course' }).click();
    const form = page.getByRole('dialog', { name: 'Register to this course' });
    await form.waitFor();
    const register = form.getByRole('button', { name: 'Register', exact: true });
    const missing = form.getByTestId('registration-missing');
    expect(await register.isDisabled()).toBe(true);
    expect(await missing.innerText()).toBe(
      'To register, choose at least one day and accept the privacy policy and the use of your data.',
    );
    await shot('registration-missing');

    const email = form.getByLabel(/E-mail/);
    await email.fill('anna.rossi@example');
    await form.getByTestId('email-hint').waitFor();
    expect(await form.getByTestId('email-hint').innerText()).toBe('Enter a valid e-mail address');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await missing.innerText()).toContain('enter a valid e-mail address');
    await email.fill(ACCOUNTS.anna.email);
    await form.getByTestId('email-hint').waitFor({ state: 'detached' });

    await form.getByRole('button', { name: /Day 1/ }).click();
    await form.getByLabel(/privacy policy/).check();
    await form.getByLabel(/use of my personal data/).check();
    await missing.waitFor({ state: 'detached' });
    expect(await register.isDisabled()).toBe(false);
    await shot('registration-ready');
  });
});

describe('every action answered', () => {
  it('a failed then successful folder creation leaves no error toast; an upload is confirmed', async () => {
    await loginAs(page, 'anna');
    await open(page, '/documents?tab=my');
    await page.getByRole('tablist', { name: 'Document lists' }).waitFor();

    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Create new folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create new folder' });
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await waitForToast(page, 'Enter a name for the folder');
    expect(await errorToasts(page)).toEqual(['Enter a name for the folder']);
    const folder = `Trust ${stamp}`;
    await dialog.getByPlaceholder('Untitled folder').fill(folder);
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await waitForToast(page, `The folder '${folder}' has been created`);
    expect(await page.locator('[data-tone="dark"]', { hasText: folder }).count()).toBe(1);
    expect(await errorToasts(page)).toEqual([]);
    await shot('folder-created');

    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Upload file' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload new file' });
    await upload.getByLabel('File', { exact: true }).setInputFiles({
      name: `visit-notes-${stamp}.pdf`,
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
    });
    await upload.getByRole('button', { name: 'Upload', exact: true }).click();
    await waitForToast(page, `'visit-notes-${stamp}.pdf' has been uploaded`);
    await shot('upload-confirmed');

    // Rename selects the name without its extension.
    await page.getByRole('button', { name: `Actions for visit-notes-${stamp}.pdf`, exact: true }).click();
    await page
      .getByRole('dialog', { name: `visit-notes-${stamp}.pdf` })
      .getByRole('button', { name: 'Rename' })
      .click();
    const rename = page.getByRole('dialog', { name: 'Rename' });
    const field = rename.getByLabel('New name');
    await expect
      .poll(() =>
        field.evaluate((el) => [(el as HTMLInputElement).selectionStart, (el as HTMLInputElement).selectionEnd]),
      )
      .toEqual([0, `visit-notes-${stamp}`.length]);
    await page.keyboard.type(`Visit notes ${stamp}`);
    expect(await field.inputValue()).toBe(`Visit notes ${stamp}.pdf`);
    await rename.getByRole('button', { name: 'Rename' }).click();
    await waitForToast(page, `Renamed to 'Visit notes ${stamp}.pdf'`);
  });

  it("'Login failed' does not follow the rep onto the next screen", async () => {
    await open(page, '/login');
    await submitLogin(page, ACCOUNTS.anna.email, 'not-the-password');
    await waitForToast(page, 'Login failed');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForPath(page, '/home');
    expect(await toastTexts(page)).not.toContain('Login failed');
  });
});

describe("What's New", () => {
  it('lists the notifications before the messages', async () => {
    await loginAs(page, 'anna');
    await open(page, '/new');
    await page.locator('[data-testid^="notification-"]').first().waitFor();
    await page.locator('#messages-heading').waitFor();
    const order = await page.evaluate(() => {
      const firstNotification = document.querySelector('[data-testid^="notification-"]');
      const messages = document.querySelector('#messages-heading');
      return firstNotification && messages ? firstNotification.compareDocumentPosition(messages) : 0;
    });
    // The messages heading comes after the first notification.
    // Node.DOCUMENT_POSITION_FOLLOWING
    expect(order & 4).toBe(4);
    await shot('whats-new');
  });
});

describe('main screens', () => {
  const SCREENS = [
    '/home',
    '/documents',
    '/documents/sent',
    '/products',
    '/learn?year=2026',
    '/learn/1',
    '/new',
    '/search?string=knee',
    '/menu',
  ];

  it('pass axe and have no control smaller than 44 x 44 px', async () => {
    await loginAs(page, 'anna');
    const small: string[] = [];
    for (const path of SCREENS) {
      await open(page, path);
      await settled(page);
      expect(await axeViolations(page), path).toEqual([]);
      small.push(...(await smallTargets(page)).map((s) => `${path}: ${s}`));
    }
    expect(small).toEqual([]);
  }, 240_000);
});
