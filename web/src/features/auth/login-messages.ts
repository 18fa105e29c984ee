import { hasStatus, safeServerMessage } from '@/lib/api/errors';
import { isValidEmail } from './login-machine';

export const FORGOT_PASSWORD_URL = 'https://www.example.com/forgot-password';

/** What the login screen says when something goes wrong. */
export const LOGIN_MESSAGES = {
  domain: 'An error occurred while checking the email domain. Retry later',
  failed: 'Login failed',
  missingEmail: 'Please enter your e-mail address',
  invalidEmail: 'Please enter a valid e-mail address',
  missingPassword: 'Please enter your password',
};

/** What keeps the typed (trimmed) e-mail from being checked, or null when it can be. */
export function emailProblem(email: string): string | null {
  if (!email) return LOGIN_MESSAGES.missingEmail;
  if (!isValidEmail(email)) return LOGIN_MESSAGES.invalidEmail;
  return null;
}

/**
 * Why the password sign-in failed: the server's own words only for too many attempts (429);
 * otherwise no more than 'Login failed', which does not tell an unknown account from a wrong password.
 */
export function signInFailure(error: unknown): string {
  const serverMessage = hasStatus(error, 429) ? safeServerMessage(error) : '';
  return serverMessage || LOGIN_MESSAGES.failed;
}

/** Why the single sign-on code could not be exchanged for a session. */
export function ssoExchangeFailure(error: unknown): string {
  return safeServerMessage(error) || LOGIN_MESSAGES.failed;
}

/**
 * What the server sends back to the login screen when single sign-on fails
 * (`backend/src/auth/sso.rs`). Anyone can send a link to `/login?error=...`: only these fixed
 * texts are shown, anything else reads 'Login failed'.
 */
export const SSO_RETURN_MESSAGES: ReadonlySet<string> = new Set([
  'Single sign-on is not configured',
  'The single sign-on provider cannot be reached. Retry later',
  'Login failed: the sign-in response is incomplete',
  'Login failed: the sign-in has expired, start again',
  'Login failed: this sign-in was started in another browser',
  'Login failed: the provider refused the sign-in',
  'Login failed: the provider sent no identity',
  'Login failed: the identity could not be verified',
  'Login failed: the provider sent no e-mail',
  "Login failed: the provider's user information could not be read",
  'Login failed: the account no longer exists',
  'Login failed: this account is disabled',
  'Login failed: this account signs in with a password',
  'Login failed: this e-mail does not belong to a single sign-on domain',
  'Login failed: the provider has not verified this e-mail',
  'Login failed: this account is linked to another identity',
  'Login failed: this identity was linked at the same time; sign in again',
]);

/** The `?error=` single sign-on came back with: one of the server's fixed texts, or 'Login failed'. */
export function ssoReturnedError(error: string): string {
  return SSO_RETURN_MESSAGES.has(error) ? error : LOGIN_MESSAGES.failed;
}
