import { isValidEmail } from '@/lib/email';
import type { RegisterPayload } from './api/register-course';
import { hasEnded } from './course-time';

/** The confirmation toast (spec section 8). */
export const REGISTERED = 'You have been registered to the course';

/** Label of the newsletter option, word for word (spec section 5). */
export const NEWSLETTER_LABEL = 'I would like to receive information about products, services and events';

export type Category = '' | 'surgeon' | 'staff';

/** The categories offered, in the form's order, and how each is labelled. */
export const CATEGORIES: Exclude<Category, ''>[] = ['surgeon', 'staff'];
export const CATEGORY_LABELS: Record<Exclude<Category, ''>, string> = { surgeon: 'Surgeon', staff: 'Staff' };

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

/**
 * A new form: the day chosen in the agenda pre-selected (unless it is no longer open, when
 * `openDays` is given), name and e-mail of the user.
 */
export function initialForm(
  preselectedDay: string | null | undefined,
  user?: { name?: string; email?: string } | null,
  openDays?: string[],
): RegistrationForm {
  const open = !openDays || (preselectedDay ? openDays.includes(preselectedDay) : false);
  return {
    days: preselectedDay && open ? [preselectedDay] : [],
    name: user?.name ?? '',
    email: user?.email ?? '',
    hospital: '',
    category: '',
    newsletter: false,
    privacyConsent: false,
    dataConsent: false,
  };
}

/** The name and e-mail the form starts with: the signed-in user's. */
export function userContact(
  user: { first_name: string; last_name: string; email: string } | null,
): { name: string; email: string } | null {
  return user ? { name: `${user.first_name} ${user.last_name}`.trim(), email: user.email } : null;
}

/** How a day of the course is offered: a day that has taken place is shown, never chosen. */
export function dayOption(
  day: { date_value: string; ended?: boolean | null },
  chosenDays: string[],
): { ended: boolean; chosen: boolean } {
  const ended = hasEnded(day);
  return { ended, chosen: !ended && chosenDays.includes(day.date_value) };
}

/** Day options toggle on and off. */
export function toggleDay(days: string[], day: string): string[] {
  return days.includes(day) ? days.filter((d) => d !== day) : [...days, day];
}

/** What can keep Register disabled, in the order of the form. */
export type Missing = 'day' | 'name' | 'email' | 'validEmail' | 'consents';

/** How each missing item is named in the form's summary. */
export const MISSING_LABELS: Record<Missing, string> = {
  day: 'choose at least one day',
  name: 'enter your name',
  email: 'enter your e-mail',
  validEmail: 'enter a valid e-mail address',
  consents: 'accept the privacy policy and the use of your data',
};

/** Shown under the e-mail field while what is typed is not an address. */
export const EMAIL_HINT = 'Enter a valid e-mail address';

/** What still blocks Register: a day, a name, a (valid) e-mail, both consents (spec section 5). */
export function missingItems(form: RegistrationForm): Missing[] {
  const missing: Missing[] = [];
  if (form.days.length === 0) missing.push('day');
  if (!form.name.trim()) missing.push('name');
  const email = form.email.trim();
  if (!email) missing.push('email');
  else if (!isValidEmail(email)) missing.push('validEmail');
  if (!(form.privacyConsent && form.dataConsent)) missing.push('consents');
  return missing;
}

/** The sentence under Register while it is disabled, e.g. 'To register, choose at least one day and enter your name.' */
export function missingSummary(missing: Missing[]): string {
  if (missing.length === 0) return '';
  const parts = missing.map((m) => MISSING_LABELS[m]);
  const last = parts.pop();
  return `To register, ${parts.length > 0 ? `${parts.join(', ')} and ${last}` : last}.`;
}

/**
 * Submit is enabled only with a day, a name, an e-mail and both consents (spec section 5); the
 * e-mail must also be one the server accepts.
 */
export function canSubmit(form: RegistrationForm): boolean {
  return missingItems(form).length === 0;
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
