import { describe, expect, it } from 'vitest';
import { excerpt, htmlToText, removeEmptyParagraphs, truncateText } from './html';

describe('htmlToText', () => {
  it('drops tags and decodes entities', () => {
    expect(htmlToText('<p>Fish &amp; <strong>chips</strong></p><p>Tea</p>')).toBe('Fish & chips Tea');
    expect(htmlToText('<p>It&#39;s &quot;fine&quot; &apos;here&apos;&nbsp;&lt;3&gt;</p>')).toBe(
      `It's "fine" 'here' <3>`,
    );
    expect(htmlToText(null)).toBe('');
    expect(htmlToText(undefined)).toBe('');
  });

  it('turns block ends and line breaks into spaces', () => {
    expect(htmlToText('<h3>Title</h3><p>One<br>two<br/>three</p><blockquote>Quote</blockquote>end')).toBe(
      'Title One two three Quote end',
    );
    expect(htmlToText('<ul><li>One</li><li>Two</li></ul>')).toBe('One Two');
  });
});

describe('removeEmptyParagraphs', () => {
  it('removes paragraphs with nothing in them', () => {
    expect(removeEmptyParagraphs('<p>a</p><p></p><p> </p><p><br></p><p>&nbsp;</p><p>b</p>')).toBe('<p>a</p><p>b</p>');
  });
});

describe('truncateText', () => {
  it('keeps short texts and cuts long ones at a word', () => {
    expect(truncateText('short', 10)).toBe('short');
    expect(truncateText('alpha beta gamma delta epsilon', 20)).toBe('alpha beta gamma…');
  });
});

describe('excerpt', () => {
  it('turns the message into one line of text', () => {
    expect(excerpt('<p>The <strong>Tendrel</strong> system.</p><ul><li>One</li><li>Two &amp; three</li></ul>')).toBe(
      'The Tendrel system. One Two & three',
    );
  });

  it('shortens long messages to at most the maximum, ellipsis included', () => {
    const text = excerpt(`<p>${'word '.repeat(60)}</p>`, 20);
    expect(text).toHaveLength(20);
    expect(text.endsWith('…')).toBe(true);
    expect(excerpt('<p>exactly ten</p>', 11)).toBe('exactly ten');
  });
});
