import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { refusalMessage } from './errors';

describe('refusal messages', () => {
  it("shows the server's own message as it is", () => {
    const error = new ApiError(403, 'You cannot approve a version you wrote: another approver must.');
    expect(refusalMessage(error, 'Approval failed')).toBe(
      'You cannot approve a version you wrote: another approver must.',
    );
  });

  it('falls back to a sentence for the status, then to the caller', () => {
    expect(refusalMessage(new ApiError(0, null), 'x')).toMatch(/No connection/);
    expect(refusalMessage(new ApiError(403, null), 'x')).toBe('Your role may not do this.');
    expect(refusalMessage(new ApiError(409, null), 'x')).toMatch(/Reload and try again/);
    expect(refusalMessage(new ApiError(413, null), 'x')).toBe('The file is too large.');
    expect(refusalMessage(new ApiError(500, null), 'Upload failed')).toBe('Upload failed');
    expect(refusalMessage(new Error('boom'), 'Upload failed')).toBe('Upload failed');
  });
});
