import { describe, expect, it } from 'vitest';
import { MAX_SERVER_MESSAGE_LENGTH, sanitizeServerMessage } from './sanitize';

describe('sanitizeServerMessage', () => {
  it('keeps a short plain message', () => {
    expect(sanitizeServerMessage('Too many attempts, try again in a minute')).toBe(
      'Too many attempts, try again in a minute',
    );
  });

  it('keeps a message of exactly the maximum length', () => {
    const text = 'a'.repeat(MAX_SERVER_MESSAGE_LENGTH);
    expect(sanitizeServerMessage(text)).toBe(text);
  });

  it('empties a message longer than 200 characters', () => {
    expect(sanitizeServerMessage('a'.repeat(MAX_SERVER_MESSAGE_LENGTH + 1))).toBe('');
  });

  it('empties a message with angle brackets', () => {
    expect(sanitizeServerMessage('<b>error</b>')).toBe('');
    expect(sanitizeServerMessage('a > b')).toBe('');
    expect(sanitizeServerMessage('a < b')).toBe('');
    expect(sanitizeServerMessage('<html><body>502 Bad Gateway</body></html>')).toBe('');
  });

  it('returns an empty text for anything that is not a string', () => {
    expect(sanitizeServerMessage(undefined)).toBe('');
    expect(sanitizeServerMessage(null)).toBe('');
    expect(sanitizeServerMessage(42)).toBe('');
    expect(sanitizeServerMessage({ message: 'x' })).toBe('');
  });

  it('trims surrounding white space', () => {
    expect(sanitizeServerMessage('  Folder not found \n')).toBe('Folder not found');
  });
});
