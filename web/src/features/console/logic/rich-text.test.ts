// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from '@/lib/sanitize-html';
import { linkTarget } from './rich-text';

describe('news editor links', () => {
  it('keeps safe addresses and completes bare hosts', () => {
    expect(linkTarget('https://example.com/a')).toBe('https://example.com/a');
    expect(linkTarget('mailto:info@example.com')).toBe('mailto:info@example.com');
    expect(linkTarget('/news/3')).toBe('/news/3');
    expect(linkTarget('example.com/page')).toBe('https://example.com/page');
  });

  it('refuses addresses the sanitiser would drop', () => {
    expect(linkTarget('javascript:alert(1)')).toBeNull();
    expect(linkTarget('//evil.example')).toBeNull();
    expect(linkTarget('data:text/html,hi')).toBeNull();
    expect(linkTarget('  ')).toBeNull();
  });

  it('previews only what the sanitiser keeps', () => {
    const html = '<p onclick="x()"><b>Hi</b><script>alert(1)</script><a href="javascript:x">y</a></p>';
    const clean = sanitizeHtml(html);
    expect(clean).toContain('<b>Hi</b>');
    expect(clean).not.toMatch(/onclick|script|javascript/);
  });
});
