import type { RegisterPayload } from './api/register-course';

/** The confirmation toast (spec section 8). */
export const REGISTERED = 'You have been registered to the course';

/** Label of the newsletter option, word for word (spec section 5). */
export const NEWSLETTER_LABEL = 'I would like to receive information about products, services and events';

export type Category = '' | 'surgeon' | 'staff';

export interface RegistrationForm {
  days: string[];
  name: string;
  email: string;
  hospital: string;
  category: Category;
  newsletter: boolean;
  privacyConsent: boolean;
  dataConsent: boolean;
}

/** A new form: the day chosen in the agenda pre-selected, name and e-mail of the user. */
export function initialForm(
  preselectedDay: string | null | undefined,
  user?: { name?: string; email?: string } | null,
): RegistrationForm {
  return {
    days: preselectedDay ? [preselectedDay] : [],
    name: user?.name ?? '',
    email: user?.email ?? '',
    hospital: '',
    category: '',
    newsletter: false,
    privacyConsent: false,
    dataConsent: false,
  };
}

/** Day options toggle on and off. */
export function toggleDay(days: string[], day: string): string[] {
  return days.includes(day) ? days.filter((d) => d !== day) : [...days, day];
}

/** Submit is enabled only with a day, a name, an e-mail and both consents (spec section 5). */
export function canSubmit(form: RegistrationForm): boolean {
  return (
    form.days.length > 0 &&
    form.name.trim().length > 0 &&
    form.email.trim().length > 0 &&
    form.privacyConsent &&
    form.dataConsent
  );
}

/** What is sent to the server. */
export function toPayload(courseId: number, form: RegistrationForm, courseDays: string[]): RegisterPayload {
  return {
    id: courseId,
    // In the course's order.
    days: courseDays.filter((d) => form.days.includes(d)),
    name: form.name.trim(),
    email: form.email.trim(),
    hospital: form.hospital.trim() || null,
    category: form.category || null,
    newsletter: form.newsletter,
    privacy_consent: form.privacyConsent,
    data_consent: form.dataConsent,
  };
}
