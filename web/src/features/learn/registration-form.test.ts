import { describe, expect, it } from 'vitest';
import {
  canSubmit,
  CATEGORIES,
  CATEGORY_LABELS,
  dayOption,
  initialForm,
  missingItems,
  missingSummary,
  NEWSLETTER_LABEL,
  toggleDay,
  toPayload,
  userContact,
  type RegistrationForm,
} from './registration-form';

const ready: RegistrationForm = {
  ...initialForm('2026-03-19', { name: 'Anna Rossi', email: 'anna.rossi@example.com' }),
  privacyConsent: true,
  dataConsent: true,
};

describe('registration form', () => {
  it('pre-selects the day chosen in the agenda', () => {
    expect(initialForm('2026-03-20').days).toEqual(['2026-03-20']);
    expect(initialForm(null).days).toEqual([]);
  });
  it('toggles days on and off', () => {
    const on = toggleDay(['a'], 'b');
    expect(on).toEqual(['a', 'b']);
    expect(toggleDay(on, 'a')).toEqual(['b']);
  });
  it('enables submit only with a day, a name, an e-mail and both consents', () => {
    expect(canSubmit(ready)).toBe(true);
    expect(canSubmit({ ...ready, days: [] })).toBe(false);
    expect(canSubmit({ ...ready, name: '  ' })).toBe(false);
    expect(canSubmit({ ...ready, email: '' })).toBe(false);
    expect(canSubmit({ ...ready, privacyConsent: false })).toBe(false);
    expect(canSubmit({ ...ready, dataConsent: false })).toBe(false);
    // Hospital, category and newsletter are optional.
    expect(canSubmit({ ...ready, hospital: '', category: '', newsletter: false })).toBe(true);
  });
  it('sends the days in the course order and optional fields as null', () => {
    const form = { ...ready, days: ['2026-03-20', '2026-03-19'], name: ' Anna Rossi ', category: 'staff' as const };
    expect(toPayload(1, form, ['2026-03-19', '2026-03-20'])).toEqual({
      id: 1,
      days: ['2026-03-19', '2026-03-20'],
      name: 'Anna Rossi',
      email: 'anna.rossi@example.com',
      hospital: null,
      category: 'staff',
      newsletter: false,
      privacy_consent: true,
      data_consent: true,
    });
  });
  it('labels the newsletter option as the spec does', () => {
    expect(NEWSLETTER_LABEL).toBe('I would like to receive information about products, services and events');
  });
});

describe('what blocks Register', () => {
  const empty = initialForm(null);
  it('names every missing item in the order of the form', () => {
    expect(missingItems(empty)).toEqual(['day', 'name', 'email', 'consents']);
    expect(missingSummary(missingItems(empty))).toBe(
      'To register, choose at least one day, enter your name, enter your e-mail and accept the privacy policy and the use of your data.',
    );
    expect(missingSummary(['day'])).toBe('To register, choose at least one day.');
    expect(missingSummary([])).toBe('');
  });
  it('checks the e-mail as the server does', () => {
    expect(missingItems({ ...ready, email: 'anna.rossi@example' })).toEqual(['validEmail']);
    expect(canSubmit({ ...ready, email: 'anna.rossi@example' })).toBe(false);
    expect(canSubmit({ ...ready, email: ' anna.rossi@example.com ' })).toBe(true);
  });
  it('does not pre-select a day that is no longer open', () => {
    expect(initialForm('2026-03-19', null, ['2026-03-20']).days).toEqual([]);
    expect(initialForm('2026-03-20', null, ['2026-03-20']).days).toEqual(['2026-03-20']);
  });
});

describe('what the form offers', () => {
  it("starts with the signed-in user's name and e-mail", () => {
    expect(userContact({ first_name: 'Anna', last_name: 'Rossi', email: 'anna.rossi@example.com' })).toEqual({
      name: 'Anna Rossi',
      email: 'anna.rossi@example.com',
    });
    expect(userContact({ first_name: 'Anna', last_name: '', email: 'a@example.com' })?.name).toBe('Anna');
    expect(userContact(null)).toBeNull();
  });
  it('shows a day that has taken place as not chosen, even when it was', () => {
    expect(dayOption({ date_value: '2026-03-19' }, ['2026-03-19'])).toEqual({ ended: false, chosen: true });
    expect(dayOption({ date_value: '2026-03-20', ended: false }, ['2026-03-19'])).toEqual({
      ended: false,
      chosen: false,
    });
    expect(dayOption({ date_value: '2026-02-25', ended: true }, ['2026-02-25'])).toEqual({
      ended: true,
      chosen: false,
    });
  });
  it('offers surgeon and staff, in that order', () => {
    expect(CATEGORIES.map((c) => CATEGORY_LABELS[c])).toEqual(['Surgeon', 'Staff']);
  });
});
