import { describe, expect, it } from 'vitest';
import {
  findMatches,
  fold,
  matchRect,
  MAX_MATCHES,
  pageHighlights,
  stepMatch,
  toTextRuns,
  type PdfRect,
  type SearchMatch,
  type TextRun,
} from './search';

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

  it("keeps the runs of a page's text content, not its marked-content tags", () => {
    const items = [
      { type: 'beginMarkedContent' },
      { str: 'Knee', transform: [10, 0, 0, 10, 5, 6], width: 40, dir: 'ltr' },
      { type: 'endMarkedContent' },
    ];
    expect(toTextRuns(items)).toEqual([{ str: 'Knee', transform: [10, 0, 0, 10, 5, 6], width: 40 }]);
  });

  it('steps through the matches and goes round at either end', () => {
    expect(stepMatch(0, 1, 3)).toBe(1);
    expect(stepMatch(2, 1, 3)).toBe(0);
    expect(stepMatch(0, -1, 3)).toBe(2);
  });

  it("highlights the page's matches where the viewport places them, the active one marked", () => {
    const runs = [run('knee and knee', 0, 100, 130)];
    const matches: SearchMatch[] = [
      { page: 1, run: 0, start: 0, length: 4 },
      { page: 2, run: 0, start: 0, length: 4 },
      { page: 1, run: 0, start: 9, length: 4 },
      { page: 1, run: 5, start: 0, length: 4 },
    ];
    // A viewport at scale 2 whose y axis points down from a page 500 units high.
    const toScreen = ([x1, y1, x2, y2]: PdfRect) => [x1 * 2, (500 - y1) * 2, x2 * 2, (500 - y2) * 2];
    const highlights = pageHighlights(1, runs, matches, matches[2] ?? null, toScreen);
    expect(highlights.map((h) => [h.key, h.isActive])).toEqual([
      ['0-0', false],
      ['0-9', true],
    ]);
    const first = highlights[0];
    expect(first?.left).toBe(0);
    expect(first?.width).toBe(80);
    expect(first?.top).toBeCloseTo((500 - 108) * 2);
    expect(first?.height).toBeCloseTo(20);
  });
});
