import { describe, expect, it } from 'vitest';
import {
  formatLongDate,
  formatLongDateTime,
  formatShortDate,
  formatTimestamp,
  formatWeekdayDate,
  parseIsoDate,
} from './dates';

describe('parseIsoDate', () => {
  it('reads calendar days as that day in UTC and ISO date-times as they are', () => {
    expect(parseIsoDate('2026-01-22')?.toISOString()).toBe('2026-01-22T00:00:00.000Z');
    expect(parseIsoDate('2026-04-20T09:00:00Z')?.toISOString()).toBe('2026-04-20T09:00:00.000Z');
  });

  it('refuses texts that are not ISO dates, and impossible days', () => {
    for (const text of ['', 'soon', 'nonsense', '2026', '16/11/2026', '2026-13-01', '2026-02-30', '2026-00-10']) {
      expect(parseIsoDate(text), text).toBeNull();
    }
    expect(parseIsoDate(null)).toBeNull();
    expect(parseIsoDate(undefined)).toBeNull();
  });
});

describe('formatShortDate', () => {
  it('writes day, short month and year', () => {
    expect(formatShortDate('2026-11-16')).toBe('16 Nov 2026');
    expect(formatShortDate('2025-01-03')).toBe('3 Jan 2025');
    expect(formatShortDate('2026-04-20T09:00:00Z')).toBe('20 Apr 2026');
  });

  it('writes every month with three letters (never "Sept")', () => {
    const months = Array.from({ length: 12 }, (_, i) => formatShortDate(`2026-${String(i + 1).padStart(2, '0')}-01`));
    expect(months.map((m) => m.split(' ')[1])).toEqual([
      'Jan',
      'Feb',
      'Mar',
      'Apr',
      'May',
      'Jun',
      'Jul',
      'Aug',
      'Sep',
      'Oct',
      'Nov',
      'Dec',
    ]);
  });

  it('keeps the UTC calendar day of a date-time', () => {
    expect(formatShortDate('2026-04-20T23:30:00Z')).toBe('20 Apr 2026');
    expect(formatShortDate('2026-04-20T23:30:00-02:00')).toBe('21 Apr 2026');
  });

  it('gives the text itself, or the caller’s fallback, when it is not a date', () => {
    expect(formatShortDate('soon')).toBe('soon');
    expect(formatShortDate('nonsense', '')).toBe('');
  });
});

describe('formatLongDate and friends', () => {
  it('writes dates in words', () => {
    expect(formatLongDate('2026-01-22')).toBe('22 January 2026');
    expect(formatLongDate('2026-09-05')).toBe('5 September 2026');
    expect(formatWeekdayDate('2026-01-22')).toBe('Thursday 22 January 2026');
    expect(formatLongDateTime('2026-01-22', '08:00')).toBe('22 January 2026, 08:00');
    expect(formatLongDateTime('2026-01-22')).toBe('22 January 2026');
    expect(formatLongDateTime('2026-01-22', null)).toBe('22 January 2026');
  });

  it('leaves other texts alone', () => {
    expect(formatLongDate('soon')).toBe('soon');
    expect(formatLongDate('2026-13-01')).toBe('2026-13-01');
    expect(formatWeekdayDate('later')).toBe('later');
  });
});

describe('formatTimestamp', () => {
  it('writes the date and the time to the second, on a 24-hour clock', () => {
    const ms = new Date(2026, 8, 16, 14, 3, 5).getTime();
    expect(formatTimestamp(ms)).toBe('16 Sep 2026, 14:03:05');
    expect(formatTimestamp(new Date(2026, 0, 2, 0, 0, 9).getTime())).toBe('2 Jan 2026, 00:00:09');
  });

  it('gives an empty text for an impossible time', () => {
    expect(formatTimestamp(Number.NaN)).toBe('');
  });
});
