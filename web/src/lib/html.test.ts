import { describe, expect, it } from 'vitest';
import { htmlToText, removeEmptyParagraphs, truncateText } from './html';

describe('htmlToText', () => {
  it('drops tags and decodes entities', () => {
    expect(htmlToText('<p>Fish &amp; <strong>chips</strong></p><p>Tea</p>')).toBe('Fish & chips Tea');
    expect(htmlToText(null)).toBe('');
  });
});

describe('removeEmptyParagraphs', () => {
  it('removes paragraphs with nothing in them', () => {
    expect(removeEmptyParagraphs('<p>a</p><p></p><p> </p><p><br></p><p>b</p>')).toBe('<p>a</p><p>b</p>');
  });
});

describe('truncateText', () => {
  it('keeps short texts and cuts long ones at a word', () => {
    expect(truncateText('short', 10)).toBe('short');
    expect(truncateText('alpha beta gamma delta epsilon', 20)).toBe('alpha beta gamma…');
  });
});
