import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginAs, open, pagePerTest, waitForPath, waitForToast } from './helpers';

/** Congresses and events, activities, training, the course calendar and course registration. */

let page: Page;

pagePerTest((fresh) => {
  ({ page } = fresh);
});

async function tabNames(p: Page): Promise<string[]> {
  return p.getByRole('tablist').getByRole('tab').allInnerTexts();
}

async function openTab(p: Page, name: string): Promise<void> {
  await p.getByRole('tab', { name, exact: true }).click();
  await p.getByRole('tab', { name, exact: true, selected: true }).waitFor();
}

describe('congresses and events', () => {
  it('lists the year with badges, the year kept in ?year', async () => {
    await loginAs(page, 'anna');
    await open(page, '/congresses?year=2025');
    await page.getByRole('heading', { name: 'Congresses and Events' }).waitFor();
    await page.getByRole('link', { name: /Copenhagen Arthroplasty Congress 2025/ }).waitFor();
    await page.getByRole('radio', { name: '2025', checked: true }).waitFor();

    await page.getByRole('radio', { name: '2026' }).click();
    await page.getByRole('link', { name: /Alpine Arthroplasty Meeting 2026/ }).waitFor();
    expect(new URL(page.url()).searchParams.get('year')).toBe('2026');
    const alpine = page.getByRole('link', { name: /Alpine Arthroplasty Meeting 2026/ });
    expect(await alpine.innerText()).toContain('Congress');
    const masterclass = page.getByRole('link', { name: /Meridian Shoulder Masterclass/ });
    expect(await masterclass.innerText()).toContain('Event');
  });

  it('opens a congress, switches every tab, opens an activity and a faculty modal', async () => {
    await loginAs(page, 'anna');
    await open(page, '/congresses?year=2026');
    await page.getByRole('link', { name: /Alpine Arthroplasty Meeting 2026/ }).click();
    await waitForPath(page, '/congresses/1');

    await page.getByRole('tablist').waitFor();
    expect(await tabNames(page)).toEqual([
      'Info',
      'Details',
      'Hotel & Transfer',
      'Day by day',
      'Activities',
      'Key messages',
      'Media',
      'Downloads',
      'Contacts',
    ]);

    // Info: dates and 'Save in calendar', which downloads an iCalendar file.
    await page.getByText('22 January 2026').first().waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save in calendar' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.ics$/);
    const ics = await readFile(await download.path(), 'utf8');
    expect(ics).toContain('BEGIN:VCALENDAR');
    expect(ics).toContain('SUMMARY:Alpine Arthroplasty Meeting 2026');
    expect(ics).toContain('DTSTART:20260122T070000Z');

    await openTab(page, 'Details');
    await page.getByRole('heading', { name: 'Timing & Dates' }).waitFor();
    await page.getByRole('heading', { name: 'Meridian booth' }).waitFor();
    await page.getByRole('heading', { name: 'Useful information' }).waitFor();

    await openTab(page, 'Hotel & Transfer');
    await page.getByRole('heading', { name: 'Hotel Nordkette View' }).waitFor();
    await page.getByRole('heading', { name: 'Additional hotels' }).waitFor();
    // The transfer text is over 400 characters: shortened behind 'Read more'.
    const readMore = page.getByRole('button', { name: 'Read more' }).first();
    await readMore.click();
    await page.getByRole('button', { name: 'Read less' }).first().waitFor();

    await openTab(page, 'Day by day');
    await page.getByRole('heading', { name: 'Thursday 22 January 2026' }).waitFor();

    await openTab(page, 'Key messages');
    await page.getByRole('heading', { name: 'Lead with hip and knee arthroplasty evidence' }).waitFor();

    await openTab(page, 'Media');
    await page.getByRole('heading', { name: 'Videos' }).waitFor();

    await openTab(page, 'Downloads');
    await page
      .getByRole('button', { name: /Programme/ })
      .first()
      .waitFor();

    await openTab(page, 'Contacts');
    await page.getByRole('heading', { name: 'Main Contact' }).waitFor();
    await page.getByText('Anja Weber').first().waitFor();

    await openTab(page, 'Activities');
    const toggleAll = page.getByRole('button', { name: 'Expand all' });
    await toggleAll.click();
    await page.getByRole('button', { name: 'Close all' }).waitFor();
    await page
      .locator('article', { hasText: 'Cementless knee fixation: when and how' })
      .getByRole('link', { name: 'Read more' })
      .click();

    await waitForPath(page, '/congresses/activities/1');
    await page.getByRole('heading', { name: 'Cementless knee fixation: when and how', level: 2 }).waitFor();
    await page.getByRole('heading', { name: 'Faculties' }).waitFor();
    await page.getByRole('button', { name: /Prof\. Henrik Aalto/ }).click();
    const modal = page.getByRole('dialog');
    await modal.getByRole('heading', { name: 'Prof. Henrik Aalto' }).waitFor();
    await modal.getByText('Professor of Orthopaedics, Helsinki').waitFor();
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'detached' });
    // Back goes to the congress's activities.
    await page.getByRole('button', { name: 'Back' }).click();
    await waitForPath(page, '/congresses/1');
    await page.getByRole('tab', { name: 'Activities', selected: true }).waitFor();
  });

  it('an activity that does not exist shows an error and goes back to /congresses', async () => {
    await loginAs(page, 'anna');
    await open(page, '/congresses/activities/99999');
    await waitForToast(page, 'Activity not found');
    await waitForPath(page, '/congresses');
  });
});

describe('sales training', () => {
  it("hides 'Open in Maps' for lunch events", async () => {
    await loginAs(page, 'anna');
    await open(page, '/training?year=2026');
    await page.getByRole('link', { name: /Shoulder Portfolio Sales Academy/ }).click();
    await waitForPath(page, '/training/1');
    await page.getByRole('heading', { name: 'Shoulder Portfolio Sales Academy', level: 1 }).waitFor();
    await openTab(page, 'Activities');
    await page.getByRole('button', { name: 'Expand all' }).click();
    const workshop = page.locator('article', { hasText: 'Workshop: Anatomic versus reverse: indications' });
    expect(await workshop.getByRole('link', { name: 'Open in Maps' }).count()).toBe(1);
    const lunch = page.locator('article', { hasText: /lunch/i }).first();
    await lunch.waitFor();
    expect(await lunch.getByRole('link', { name: 'Open in Maps' }).count()).toBe(0);
  });

  it('a training that does not exist goes back to /training', async () => {
    await loginAs(page, 'anna');
    await open(page, '/training/999');
    await waitForPath(page, '/training');
  });
});

describe('medical education', () => {
  it('filters the calendar from the Filters modal and keeps them in the URL', async () => {
    await loginAs(page, 'anna');
    await open(page, '/learn?year=2026');
    await page.getByRole('heading', { name: 'Medical Education Calendar' }).waitFor();
    await page.getByTestId('course-card').first().waitFor();
    expect(await page.getByTestId('course-card').count()).toBe(14);
    const badges = await page.locator('[data-tone-badge]').allInnerTexts();
    expect(new Set(badges)).toEqual(new Set(['Course', 'Online course', '3rd-Party event', 'Other']));

    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByRole('dialog').getByLabel('Category').selectOption('online');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL((url) => url.searchParams.get('category') === 'online');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="course-card"]').length === 4);
    expect(new Set(await page.locator('[data-tone-badge]').allInnerTexts())).toEqual(new Set(['Online course']));
  });

  it('registers Anna to a course day from the agenda, then refuses the same day', async () => {
    await loginAs(page, 'anna');
    await open(page, '/learn?year=2026');
    await page.getByRole('link', { name: /Reverse Shoulder Arthroplasty: Cadaver Course/ }).click();
    await waitForPath(page, '/learn/1');
    await openTab(page, 'Agenda');
    await page.getByRole('button', { name: /^Day 2 - 20 March 2026/ }).click();

    const register = async () => {
      await page.getByRole('button', { name: 'Register to Day 2 - 20 March 2026' }).click();
      const form = page.getByRole('dialog', { name: 'Register to this course' });
      await form.waitFor();
      // The day chosen in the agenda is pre-selected; the other is not.
      expect(await form.getByRole('button', { name: /Day 2 - 20 March 2026/ }).getAttribute('aria-pressed')).toBe(
        'true',
      );
      expect(await form.getByRole('button', { name: /Day 1 - 19 March 2026/ }).getAttribute('aria-pressed')).toBe(
        'false',
      );
      expect(await form.getByLabel(/E-mail/).getAttribute('type')).toBe('email');
      await form.getByLabel(/^Name/).fill('Anna Rossi');
      await form.getByLabel(/E-mail/).fill('anna.rossi@example.com');
      await form.getByLabel('Hospital').fill('Ospedale Nord');
      await form.getByLabel('Surgeon').check();
      const submit = page.getByRole('button', { name: 'Register', exact: true });
      await expect.poll(() => submit.isDisabled()).toBe(true);
      await form.getByLabel(/privacy policy/).check();
      await expect.poll(() => submit.isDisabled()).toBe(true);
      await form.getByLabel(/data-protection/).check();
      await expect.poll(() => submit.isEnabled()).toBe(true);
      await submit.click();
      return form;
    };

    const form = await register();
    await waitForToast(page, 'You have been registered to the course');
    expect(
      await page.locator('[data-tone="dark"]', { hasText: 'You have been registered to the course' }).count(),
    ).toBe(1);
    await form.waitFor({ state: 'detached' });
    // The tab bar is back once the form is closed.
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    const again = await register();
    await waitForToast(page, 'You are already registered to this course day');
    expect(await page.locator('[data-tone="danger"]', { hasText: 'already registered' }).count()).toBe(1);
    // The form stays open after a failure.
    await page.waitForTimeout(300);
    expect(await again.isVisible()).toBe(true);
    await again.getByRole('button', { name: 'Close' }).click();
    await again.waitFor({ state: 'detached' });
  });
});

/** Screenshots at 400 px for visual review: set E2E_SHOTS_DIR to take them. */
const shotsDir = process.env.E2E_SHOTS_DIR;

describe.skipIf(!shotsDir)('programme screenshots', () => {
  it('congress detail, course list, course detail, registration form', async () => {
    const dir = join(shotsDir ?? '', 'programmes');
    await mkdir(dir, { recursive: true });
    await loginAs(page, 'anna');
    await open(page, '/congresses/1');
    await page.getByRole('tablist').waitFor();
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(dir, 'congress-detail.png') });
    await open(page, '/learn?year=2026');
    await page.getByTestId('course-card').first().waitFor();
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(dir, 'course-list.png') });
    await open(page, '/learn/1');
    await page.getByRole('button', { name: 'Register to this course' }).waitFor();
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(dir, 'course-detail.png') });
    await page.getByRole('button', { name: 'Register to this course' }).click();
    await page.getByRole('dialog').waitFor();
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(dir, 'registration-form.png') });
  });
});
