import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { emailProblem, LOGIN_MESSAGES, signInFailure, ssoExchangeFailure, ssoReturnedError } from './login-messages';

describe('login messages', () => {
  it('asks for an e-mail, then for a valid one', () => {
    expect(emailProblem('')).toBe('Please enter your e-mail address');
    expect(emailProblem('anna.rossi')).toBe('Please enter a valid e-mail address');
    expect(emailProblem('anna.rossi@example.com')).toBeNull();
  });

  it("shows the server's words for too many attempts only", () => {
    expect(signInFailure(new ApiError(429, 'Too many attempts, retry in a minute'))).toBe(
      'Too many attempts, retry in a minute',
    );
    expect(signInFailure(new ApiError(401, 'Unknown user anna.rossi@example.com'))).toBe('Login failed');
    expect(signInFailure(new ApiError(429, '<html>busy</html>'))).toBe('Login failed');
    expect(signInFailure(new TypeError('Failed to fetch'))).toBe('Login failed');
  });

  it("shows the server's words when the single sign-on code is refused", () => {
    expect(ssoExchangeFailure(new ApiError(401, 'The sign-in link has expired'))).toBe('The sign-in link has expired');
    expect(ssoExchangeFailure(new ApiError(500, null))).toBe(LOGIN_MESSAGES.failed);
  });

  it("shows only the server's fixed texts when single sign-on comes back with an error", () => {
    expect(ssoReturnedError('Login failed: this account is disabled')).toBe('Login failed: this account is disabled');
    expect(ssoReturnedError('Single sign-on is not configured')).toBe('Single sign-on is not configured');
    // A provider's own description, or a crafted link, is never shown.
    expect(ssoReturnedError('Access denied by your organisation')).toBe('Login failed');
    expect(ssoReturnedError('Login failed: call +1 555 0100 to unlock your account')).toBe('Login failed');
    expect(ssoReturnedError('<script>alert(1)</script>')).toBe('Login failed');
    expect(ssoReturnedError('')).toBe('Login failed');
  });
});
