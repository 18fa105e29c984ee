import { describe, expect, it } from 'vitest';
import { readMoreLabel, shortenLink } from './text';

describe('shortenLink', () => {
  it('keeps links of up to 30 characters', () => {
    expect(shortenLink('https://www.example.com')).toBe('https://www.example.com');
    const exactly30 = 'https://example.com/abcdefghij';
    expect(exactly30).toHaveLength(30);
    expect(shortenLink(exactly30)).toBe(exactly30);
  });
  it('cuts longer links at 30 characters and adds ...', () => {
    const long = 'https://forms.meridian-ortho.example/loan-sets/new-request';
    expect(shortenLink(long)).toBe('https://forms.meridian-ortho.e...');
    expect(shortenLink(long)).toHaveLength(33);
  });
});

describe('readMoreLabel', () => {
  it('offers Read more only when the clamped text overflows', () => {
    expect(readMoreLabel(false, true)).toBe('Read more');
    expect(readMoreLabel(false, false)).toBeNull();
  });
  it('offers Read less once expanded', () => {
    expect(readMoreLabel(true, true)).toBe('Read less');
    expect(readMoreLabel(true, false)).toBe('Read less');
  });
});
