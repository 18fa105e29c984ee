import { describe, expect, it } from 'vitest';
import { truncateMovedName } from './truncate';

describe('truncateMovedName', () => {
  it('keeps names of up to 20 characters', () => {
    expect(truncateMovedName('')).toBe('');
    expect(truncateMovedName('Q4')).toBe('Q4');
    expect(truncateMovedName('a'.repeat(20))).toBe('a'.repeat(20));
  });

  it('shortens longer names to first 5 + ... + last 5', () => {
    expect(truncateMovedName('abcdefghijklmnopqrstu')).toBe('abcde...qrstu');
    expect(truncateMovedName('Visit report - Ospedale Nord.pdf')).toBe('Visit...d.pdf');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(truncateMovedName('ééééé'.repeat(4))).toBe('ééééé'.repeat(4));
    expect(truncateMovedName('😀bcdefghijklmnopqrs😀')).toBe('😀bcdefghijklmnopqrs😀');
    expect(truncateMovedName('😀bcdefghijklmnopqrst😀')).toBe('😀bcde...qrst😀');
  });
});
