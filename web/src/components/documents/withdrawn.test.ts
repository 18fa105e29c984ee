import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import {
  EXPIRED_MESSAGE,
  readWithdrawal,
  readWithdrawnPageState,
  withdrawalOfError,
  withdrawalText,
  WITHDRAWN_MESSAGE,
  withdrawnPathOfUrl,
  withdrawnRoute,
} from './withdrawn';

const body = {
  message: 'This document was withdrawn.',
  state: 'withdrawn',
  reason: 'Wrong dosage table',
  at: '2026-11-20T10:00:00Z',
  replacement: { id: 100002, title: 'Brochure v2', url: '/api/library/100002/file' },
};

describe('withdrawn documents', () => {
  it('reads the 410 of a file route, with when, why and the replacement', () => {
    const w = withdrawalOfError(new ApiError(410, body.message, body));
    expect(w).toEqual({
      state: 'withdrawn',
      reason: 'Wrong dosage table',
      at: Date.parse('2026-11-20T10:00:00Z'),
      replacement: { id: 100002, title: 'Brochure v2', url: '/api/library/100002/file' },
    });
    // Other failures are not withdrawals.
    expect(withdrawalOfError(new ApiError(404, 'Not found', body))).toBeNull();
    expect(withdrawalOfError(new Error('x'))).toBeNull();
  });

  it('still knows an expired document from a 410 without a readable body', () => {
    expect(withdrawalOfError(new ApiError(410, 'This document has expired.'))).toMatchObject({
      state: 'expired',
      replacement: null,
    });
  });

  it('reads the state of an item and refuses anything else', () => {
    expect(readWithdrawal({ state: 'expired', at: 5, reason: 'Past date', replacement: null })).toEqual({
      state: 'expired',
      at: 5,
      reason: 'Past date',
      replacement: null,
    });
    expect(readWithdrawal(null)).toBeNull();
    expect(readWithdrawal({ state: 'released' })).toBeNull();
    expect(readWithdrawal({ state: 'withdrawn', replacement: { id: 3, title: 'T' } })?.replacement).toEqual({
      id: 3,
      title: 'T',
      url: '/api/library/3/file',
    });
  });

  it('says what happened, when and why', () => {
    const text = withdrawalText({
      state: 'withdrawn',
      reason: ' Recalled ',
      at: Date.UTC(2026, 10, 20, 10),
      replacement: null,
    });
    expect(text.tag).toBe('Withdrawn');
    expect(text.message).toBe(WITHDRAWN_MESSAGE);
    expect(text.when).toMatch(/^Withdrawn on .*2026/);
    expect(text.reason).toBe('Recalled');
    const expired = withdrawalText({ state: 'expired', reason: '', at: 0, replacement: null });
    expect(expired).toEqual({ tag: 'Expired', message: EXPIRED_MESSAGE, when: '', reason: '' });
  });

  it('leads a file address to its page', () => {
    expect(withdrawnPathOfUrl('/api/library/12/file?download=1')).toBe('/library/12/withdrawn');
    expect(withdrawnPathOfUrl('/api/documents/a%20b/file')).toBe('/documents/a%20b/withdrawn');
    expect(withdrawnPathOfUrl('/media/x.pdf')).toBeNull();
  });

  it('hands the page what a withdrawn copy carries', () => {
    const withdrawal = { state: 'withdrawn' as const, reason: 'R', at: 1, replacement: null };
    const [path, options] = withdrawnRoute({
      id: 'c1',
      title: '',
      name: 'brochure.pdf',
      withdrawal: null,
      withdrawn: withdrawal,
    } as never);
    expect(path).toBe('/documents/c1/withdrawn');
    expect(readWithdrawnPageState(options.state)).toEqual({ withdrawal, title: 'brochure.pdf' });
    expect(readWithdrawnPageState({ withdrawal: { state: 'nope' } })).toBeNull();
  });
});
