import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { MESSAGES } from './messages';
import {
  initialLinkFields,
  initialRecipient,
  linkOptions,
  recipientEmail,
  recipientReducer,
  recipientSearch,
  shareErrorToast,
  shouldLookupRecipients,
} from './share';

describe('shouldLookupRecipients', () => {
  it('starts the lookup above 3 characters', () => {
    expect(shouldLookupRecipients('')).toBe(false);
    expect(shouldLookupRecipients('joh')).toBe(false);
    expect(shouldLookupRecipients('  jo  ')).toBe(false);
    expect(shouldLookupRecipients('john')).toBe(true);
  });
});

describe('recipientReducer', () => {
  it('fills the e-mail with a picked user and unselects on a second tap', () => {
    let state = recipientReducer(initialRecipient, { type: 'typed', value: 'john' });
    expect(recipientEmail(state)).toBe('john');
    state = recipientReducer(state, { type: 'picked', email: 'john.miller@example.com' });
    expect(recipientEmail(state)).toBe('john.miller@example.com');
    expect(recipientSearch(state)).toBe('john');
    state = recipientReducer(state, { type: 'picked', email: 'john.miller@example.com' });
    expect(state.selected).toBeNull();
    expect(recipientEmail(state)).toBe('john');
  });

  it('switches between listed users and drops the pick when typing', () => {
    let state = recipientReducer(initialRecipient, { type: 'typed', value: 'exam' });
    state = recipientReducer(state, { type: 'picked', email: 'a@example.com' });
    state = recipientReducer(state, { type: 'picked', email: 'b@example.com' });
    expect(recipientEmail(state)).toBe('b@example.com');
    state = recipientReducer(state, { type: 'typed', value: 'examp' });
    expect(state).toEqual({ typed: 'examp', selected: null });
    expect(recipientReducer(state, { type: 'reset' })).toEqual(initialRecipient);
  });

  it('does not search with 3 characters or fewer', () => {
    expect(recipientSearch({ typed: 'ann', selected: null })).toBeNull();
    expect(recipientSearch({ typed: ' anna ', selected: null })).toBe('anna');
  });
});

describe('shareErrorToast', () => {
  const notFound = new ApiError(404, 'User not found');

  it('gives the 6000 ms text for an unknown colleague', () => {
    for (const kind of ['internal', 'storage', 'folder'] as const) {
      expect(shareErrorToast(notFound, kind)).toEqual({ message: MESSAGES.recipientNotFound, duration: 6000 });
    }
  });

  it("shows the server's message otherwise", () => {
    expect(shareErrorToast(notFound, 'external')).toEqual({ message: 'User not found' });
    expect(shareErrorToast(new ApiError(403, 'Internal documents cannot be shared externally'), 'external')).toEqual({
      message: 'Internal documents cannot be shared externally',
    });
    expect(shareErrorToast(new ApiError(500, '<html>'), 'internal')).toEqual({ message: MESSAGES.cannotShare });
    expect(shareErrorToast(new Error('boom'), 'internal')).toEqual({ message: MESSAGES.cannotShare });
  });
});

describe('linkOptions', () => {
  it('gives the defaults: 7 days, download allowed, no limit of opens', () => {
    expect(linkOptions(initialLinkFields)).toEqual({
      ok: true,
      options: { expires_in_days: 7, allow_download: true, max_opens: null },
    });
  });

  it('refuses a duration outside 1 to 30 days in the server’s words', () => {
    for (const days of ['0', '31', '', '2.5', 'x']) {
      expect(linkOptions({ ...initialLinkFields, days })).toEqual({
        ok: false,
        message: 'A link can last from 1 to 30 days',
      });
    }
    expect(linkOptions({ ...initialLinkFields, days: '30' }).ok).toBe(true);
    expect(linkOptions({ ...initialLinkFields, days: '45' }, 60).ok).toBe(true);
  });

  it('checks the limit of opens only when it is on', () => {
    const limited = { ...initialLinkFields, limitOpens: true };
    expect(linkOptions({ ...limited, maxOpens: '0' })).toEqual({
      ok: false,
      message: 'The number of opens must be between 1 and 1000',
    });
    expect(linkOptions({ ...limited, maxOpens: '1001' }).ok).toBe(false);
    expect(linkOptions({ ...limited, maxOpens: '2', allowDownload: false })).toEqual({
      ok: true,
      options: { expires_in_days: 7, allow_download: false, max_opens: 2 },
    });
    expect(linkOptions({ ...initialLinkFields, maxOpens: '0' }).ok).toBe(true);
  });
});
