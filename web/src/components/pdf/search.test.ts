import { describe, expect, it } from 'vitest';
import { findMatches, fold, matchRect, MAX_MATCHES, type TextRun } from './search';

const run = (str: string, e = 0, f = 0, width = str.length * 10): TextRun => ({
  str,
  transform: [10, 0, 0, 10, e, f],
  width,
});

describe('PDF search', () => {
  it('folds case and accents without changing positions', () => {
    expect(fold('Fémur ÉCHO')).toBe('femur echo');
    expect(fold('Fémur').length).toBe('Fémur'.length);
  });

  it('finds every match in reading order, across pages and runs', () => {
    const pages = [[run('Knee knee'), run('no')], [run('KNEE system')]];
    expect(findMatches(pages, 'knee')).toEqual([
      { page: 1, run: 0, start: 0, length: 4 },
      { page: 1, run: 0, start: 5, length: 4 },
      { page: 2, run: 0, start: 0, length: 4 },
    ]);
  });

  it('finds nothing for a blank query or a missing word', () => {
    const pages = [[run('Shoulder')]];
    expect(findMatches(pages, '   ')).toEqual([]);
    expect(findMatches(pages, 'hip')).toEqual([]);
  });

  it('matches accents loosely', () => {
    expect(findMatches([[run('Prothèse totale')]], 'prothese')).toHaveLength(1);
  });

  it('stops at the match limit', () => {
    const pages = [[run('a'.repeat(MAX_MATCHES + 50))]];
    expect(findMatches(pages, 'a')).toHaveLength(MAX_MATCHES);
  });

  it('places a match by the share of its run', () => {
    // 10 characters over 100 units from x = 50; characters 2..5 cover 70..100.
    const rect = matchRect(run('abcdefghij', 50, 200, 100), { start: 2, length: 3 });
    expect(rect[0]).toBe(70);
    expect(rect[2]).toBe(100);
    expect(rect[1]).toBeCloseTo(198);
    expect(rect[3]).toBeCloseTo(208);
  });
});
