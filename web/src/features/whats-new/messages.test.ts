import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { MESSAGES, toastText } from './messages';

describe('server messages in toasts', () => {
  it("shows the server's message when it is plain and short", () => {
    expect(toastText(new ApiError(400, 'The title is required'), MESSAGES.operation)).toBe('The title is required');
  });

  it('falls back when the message is over 200 characters', () => {
    expect(toastText(new ApiError(400, 'x'.repeat(201)), MESSAGES.operation)).toBe(MESSAGES.operation);
    expect(toastText(new ApiError(400, 'x'.repeat(200)), MESSAGES.operation)).toBe('x'.repeat(200));
  });

  it('falls back when the message has angle brackets', () => {
    expect(toastText(new ApiError(500, '<html><body>Bad gateway</body></html>'), MESSAGES.generic)).toBe(
      MESSAGES.generic,
    );
    expect(toastText(new ApiError(400, 'Use a -> b'), MESSAGES.operation)).toBe(MESSAGES.operation);
  });

  it('falls back without a server message', () => {
    expect(toastText(new ApiError(0, null), MESSAGES.generic)).toBe(MESSAGES.generic);
    expect(toastText(new Error('boom'), MESSAGES.generic)).toBe(MESSAGES.generic);
    expect(toastText(undefined, MESSAGES.generic)).toBe(MESSAGES.generic);
  });

  it('keeps the exact texts of the spec', () => {
    expect(MESSAGES.wizard).toBe(
      'An error occurred while showing you the last addition to the app. Check in "What\'s new"',
    );
    expect(MESSAGES.updatesCheck).toBe('An error occurred while checking the latest app updates');
  });
});
