import { describe, expect, it } from 'vitest';
import { excerpt, formatDate } from './format';

describe('list texts', () => {
  it('turns the message into one line of text', () => {
    expect(excerpt('<p>The <strong>Tendrel</strong> system.</p><ul><li>One</li><li>Two &amp; three</li></ul>')).toBe(
      'The Tendrel system. One Two & three',
    );
  });

  it('shortens long messages', () => {
    const text = excerpt(`<p>${'word '.repeat(60)}</p>`, 20);
    expect(text.length).toBeLessThanOrEqual(20);
    expect(text.endsWith('…')).toBe(true);
  });

  it('formats the publication date', () => {
    expect(formatDate('2026-04-20T09:00:00Z')).toBe('20 Apr 2026');
    expect(formatDate('nonsense')).toBe('');
  });
});
