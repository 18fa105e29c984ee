import { describe, expect, it } from 'vitest';
import { needsReadMore, READ_MORE_CHARS, readMoreLabel, shortened } from './read-more';

describe('read more', () => {
  it('appears only above 400 characters of text', () => {
    expect(READ_MORE_CHARS).toBe(400);
    expect(needsReadMore(`<p>${'a'.repeat(400)}</p>`)).toBe(false);
    expect(needsReadMore(`<p>${'a'.repeat(401)}</p>`)).toBe(true);
    // Markup does not count.
    expect(needsReadMore(`<p><strong>${'a'.repeat(395)}</strong></p><p></p>`)).toBe(false);
    expect(needsReadMore(null)).toBe(false);
  });
  it('shortens at the threshold', () => {
    const text = shortened(`<p>${'word '.repeat(100)}</p>`);
    expect(text.length).toBeLessThanOrEqual(401);
    expect(text.endsWith('…')).toBe(true);
  });
  it('toggles its label', () => {
    expect(readMoreLabel(false)).toBe('Read more');
    expect(readMoreLabel(true)).toBe('Read less');
  });
});
