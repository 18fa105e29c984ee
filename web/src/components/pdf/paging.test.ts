import { describe, expect, it } from 'vitest';
import { clampPage, pageAt, pageInputDigits, parsePageInput } from './paging';

describe('PDF paging', () => {
  it('keeps a page number within the document', () => {
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(9, 5)).toBe(5);
    expect(clampPage(2.6, 5)).toBe(3);
    expect(clampPage(3, 0)).toBe(1);
  });

  it('reads the page whose top is above the first third of the view', () => {
    const tops = [8, 1008, 2008];
    expect(pageAt(tops, 0, 900)).toBe(1);
    expect(pageAt(tops, 800, 900)).toBe(2);
    expect(pageAt(tops, 1800, 900)).toBe(3);
  });

  it('leaves out pages not laid out yet', () => {
    expect(pageAt([8, undefined, 2008], 800, 900)).toBe(1);
    expect(pageAt([], 800, 900)).toBe(1);
  });

  it('keeps up to five digits of what is typed', () => {
    expect(pageInputDigits('1a2-3')).toBe('123');
    expect(pageInputDigits('1234567')).toBe('12345');
    expect(pageInputDigits('abc')).toBe('');
  });

  it('reads the typed page number, or none', () => {
    expect(parsePageInput('12')).toBe(12);
    expect(parsePageInput('')).toBeNull();
  });
});
