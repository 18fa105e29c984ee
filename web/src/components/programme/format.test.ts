import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay, formatRange } from './format';

describe('dates', () => {
  it('formats ISO dates in words', () => {
    expect(formatDate('2026-01-22')).toBe('22 January 2026');
    expect(formatDay('2026-01-22')).toBe('Thursday 22 January 2026');
    expect(formatDateTime('2026-01-22', '08:00')).toBe('22 January 2026, 08:00');
    expect(formatDateTime('2026-01-22')).toBe('22 January 2026');
    expect(formatRange('2026-01-22', '2026-01-22')).toBe('22 January 2026');
    expect(formatRange('2026-01-22', '2026-01-24')).toBe('22 January 2026 – 24 January 2026');
  });
  it('leaves other texts alone', () => {
    expect(formatDate('soon')).toBe('soon');
    expect(formatDate('2026-13-01')).toBe('2026-13-01');
  });
});
