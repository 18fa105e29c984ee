/**
 * Search inside a PDF: the text runs of each page (as pdf.js extracts them) are searched one by
 * one, case- and accent-insensitively; a match is placed on the page by the share of the run it
 * covers, which is exact for the monospaced widths pdf.js reports per run and close enough for the
 * rest to draw a highlight over the words.
 */

/** One run of text on a page, in PDF units. */
export interface TextRun {
  str: string;
  /** pdf.js text transform [a, b, c, d, e, f]: e, f place the baseline start. */
  transform: number[];
  /** Width of the run in PDF units. */
  width: number;
}

export interface SearchMatch {
  /** 1-based page number. */
  page: number;
  /** Index of the run on its page. */
  run: number;
  /** Start and length of the match within the run's text. */
  start: number;
  length: number;
}

/** A rectangle in PDF units: left, bottom, right, top. */
export type PdfRect = [number, number, number, number];

/** Longest query searched for; the input itself is limited to this too. */
export const MAX_QUERY_LENGTH = 100;

/** How many matches are listed at most (a one-letter search in a long document stays fast). */
export const MAX_MATCHES = 1000;

/** Folds case and accents so that 'Fémur' finds 'femur'; keeps one character per character. */
export function fold(text: string): string {
  return Array.from(text, (ch) => {
    const base = ch.normalize('NFD').replace(/\p{M}+/gu, '');
    return (base.length === 1 ? base : ch).toLowerCase();
  }).join('');
}

/** Every match of `query` in the pages' text runs, in reading order. */
export function findMatches(pages: TextRun[][], query: string): SearchMatch[] {
  const needle = fold(query.trim().slice(0, MAX_QUERY_LENGTH));
  if (!needle) return [];
  const out: SearchMatch[] = [];
  pages.forEach((runs, p) => {
    runs.forEach((run, r) => {
      const hay = fold(run.str);
      let from = 0;
      for (;;) {
        const at = hay.indexOf(needle, from);
        if (at === -1 || out.length >= MAX_MATCHES) return;
        out.push({ page: p + 1, run: r, start: at, length: needle.length });
        from = at + needle.length;
      }
    });
  });
  return out;
}

/** Where a match sits on its page, in PDF units (to be turned into screen pixels by the viewport). */
export function matchRect(run: TextRun, match: Pick<SearchMatch, 'start' | 'length'>): PdfRect {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = run.transform;
  const chars = Math.max(run.str.length, 1);
  const fontSize = Math.hypot(c, d) || Math.hypot(a, b) || 10;
  const left = e + (run.width * match.start) / chars;
  const right = e + (run.width * (match.start + match.length)) / chars;
  // The baseline is at f; letters reach about 0.8 of the size above it and 0.2 below.
  return [left, f - fontSize * 0.2, right, f + fontSize * 0.8];
}

/** An item of a page's text content as pdf.js gives it: a run of text, or a marked-content tag. */
export type TextContentItem = { str: string; transform: unknown[]; width: number } | { type: string };

/** The runs of text of a page, without pdf.js's marked-content tags. */
export function toTextRuns(items: readonly TextContentItem[]): TextRun[] {
  return items.flatMap((item) =>
    'str' in item ? [{ str: item.str, transform: item.transform as number[], width: item.width }] : [],
  );
}

/** The match `delta` steps from `active`, going round at either end. */
export function stepMatch(active: number, delta: number, count: number): number {
  return (active + delta + count) % count;
}

/** A match drawn over its words, in screen pixels from the page's top left corner. */
export interface Highlight {
  key: string;
  isActive: boolean;
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The highlights of the matches on page `page` (1-based), given the page's runs of text and
 * `toScreen`, which turns a rectangle in PDF units into two corners in screen pixels.
 */
export function pageHighlights(
  page: number,
  runs: TextRun[],
  matches: SearchMatch[],
  active: SearchMatch | null,
  toScreen: (rect: PdfRect) => number[],
): Highlight[] {
  return matches
    .filter((m) => m.page === page)
    .flatMap((m) => {
      const run = runs[m.run];
      if (!run) return [];
      const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = toScreen(matchRect(run, m));
      return [
        {
          key: `${m.run}-${m.start}`,
          isActive: m === active,
          left: Math.min(x1, x2),
          top: Math.min(y1, y2),
          width: Math.abs(x2 - x1),
          height: Math.abs(y2 - y1),
        },
      ];
    });
}
