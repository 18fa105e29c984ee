/** Longest e-mail the server accepts (RFC 5321 path limit). */
export const MAX_EMAIL_LENGTH = 254;

/**
 * The server's check of an e-mail address (events/src/email.rs), so a form can say at once what
 * the server would refuse: one `@`, a local part, a dotted domain without empty labels at its
 * ends or in its middle, no spaces or control characters, at most 254 bytes.
 */
export function isValidEmail(email: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (new TextEncoder().encode(email).length > MAX_EMAIL_LENGTH || /[\s\u0000-\u001f\u007f]/.test(email)) {
    return false;
  }
  const at = email.indexOf('@');
  if (at <= 0) return false;
  const domain = email.slice(at + 1);
  return (
    !domain.includes('@') &&
    domain.includes('.') &&
    !domain.startsWith('.') &&
    !domain.endsWith('.') &&
    !domain.includes('..')
  );
}

export type EmailCheck = 'empty' | 'incomplete' | 'valid';

/**
 * How a typed e-mail stands, for a hint under the field: nothing typed, not (yet) an address,
 * or an address. Surrounding spaces are the form's to trim.
 */
export function checkEmail(typed: string): EmailCheck {
  const email = typed.trim();
  if (!email) return 'empty';
  return isValidEmail(email) ? 'valid' : 'incomplete';
}
