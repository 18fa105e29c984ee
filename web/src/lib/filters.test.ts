import { describe, expect, it } from 'vitest';
import { activeFilterCount, currentYear, optionLabel, readFilters, withFilter } from './filters';

describe('filters in the URL', () => {
  it('reads only the known, non-empty filters', () => {
    const search = new URLSearchParams('year=2025&month=&category=online&other=x');
    expect(readFilters(search, ['year', 'month', 'category'])).toEqual({ year: '2025', category: 'online' });
  });
  it('sets and clears one filter without touching the others', () => {
    const search = new URLSearchParams('year=2025&category=online');
    expect(withFilter(search, 'month', '03').toString()).toBe('year=2025&category=online&month=03');
    expect(withFilter(search, 'category', '').toString()).toBe('year=2025');
    expect(search.toString()).toBe('year=2025&category=online');
  });
  it('counts filters that differ from the defaults', () => {
    expect(activeFilterCount({ year: '2026' }, '2026')).toBe(0);
    expect(activeFilterCount({ year: '2025' }, '2026')).toBe(1);
    expect(activeFilterCount({ year: '2026', category: 'online', month: '03' }, '2026')).toBe(2);
  });
  it('labels values', () => {
    expect(optionLabel([{ value: '1', label: 'Shoulder' }], '1')).toBe('Shoulder');
    expect(optionLabel([], 'x')).toBe('x');
    expect(optionLabel([], null)).toBe('');
    expect(currentYear(new Date(2027, 0, 1))).toBe('2027');
  });
});
