/** Which page the viewer shows, and the page number typed into its toolbar. */

/** A page number asked for, rounded into 1..count (1 while there are no pages yet). */
export function clampPage(n: number, count: number): number {
  return Math.min(Math.max(1, Math.round(n)), Math.max(count, 1));
}

/**
 * The page being read: the last one whose top is above the first third of the view, given the
 * pages' tops (pages not laid out yet are left out).
 */
export function pageAt(tops: readonly (number | undefined)[], scrollTop: number, viewHeight: number): number {
  const line = scrollTop + viewHeight / 3;
  let page = 1;
  tops.forEach((top, i) => {
    if (top !== undefined && top <= line) page = i + 1;
  });
  return page;
}

/** What the page number field keeps of what is typed: up to five digits. */
export function pageInputDigits(typed: string): string {
  return typed.replace(/\D/g, '').slice(0, 5);
}

/** The page number in the field, or null when there is none. */
export function parsePageInput(input: string): number | null {
  const n = Number.parseInt(input, 10);
  return Number.isFinite(n) ? n : null;
}
