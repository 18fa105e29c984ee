import { describe, expect, it } from 'vitest';
import {
  canSubmit,
  initialForm,
  NEWSLETTER_LABEL,
  toggleDay,
  toPayload,
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
