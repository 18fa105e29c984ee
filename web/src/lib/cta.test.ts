import { describe, expect, it } from 'vitest';
import { cleanCtaUrls, isSafeCtaUrl, mailAddressOf } from './cta';

describe('call-to-action urls', () => {
  it('keeps web, mail and in-app addresses only', () => {
    expect(isSafeCtaUrl('https://www.example.com/privacy')).toBe(true);
    expect(isSafeCtaUrl('mailto:support@example.com')).toBe(true);
    expect(isSafeCtaUrl('/app/new')).toBe(true);
    expect(isSafeCtaUrl('javascript:alert(1)')).toBe(false);
    expect(isSafeCtaUrl('//evil.example.com')).toBe(false);
    expect(isSafeCtaUrl('data:text/html,hi')).toBe(false);
  });

  it('drops what is not a usable address', () => {
    expect(cleanCtaUrls({ support: 'mailto:a@b.c', bad: 'javascript:x', n: 3 })).toEqual({ support: 'mailto:a@b.c' });
    expect(cleanCtaUrls(null)).toEqual({});
    expect(cleanCtaUrls(['mailto:a@b.c'])).toEqual({});
  });

  it('reads the address of a mail link', () => {
    expect(mailAddressOf('mailto:support@example.com?subject=Hi')).toBe('support@example.com');
    expect(mailAddressOf('support@example.com')).toBe('support@example.com');
  });
});
