/** Spec sections 5 and 9: a search needs at least 2 characters. */
export const MIN_SEARCH_LENGTH = 2;

/** The term as it is searched: surrounding spaces do not count. */
export function normalizeTerm(term: string): string {
  return term.trim();
}

/** Whether a term is long enough to be sent to the server. */
export function isSearchable(term: string): boolean {
  return normalizeTerm(term).length >= MIN_SEARCH_LENGTH;
}

/** What the screen shows for the text in the bar. */
export type TermState = 'empty' | 'short' | 'ok';

export function termState(term: string): TermState {
  const trimmed = normalizeTerm(term);
  if (trimmed.length === 0) return 'empty';
  return trimmed.length < MIN_SEARCH_LENGTH ? 'short' : 'ok';
}

/**
 * Whether the results of `previous` may stay on screen while `next` loads:
 * when one term extends the other (typing on, or deleting back). The server
 * matches by prefix, so those results are close to the coming ones; after
 * an unrelated term the screen shows a loader instead.
 */
export function continuesTerm(previous: string, next: string): boolean {
  const a = normalizeTerm(previous).toLowerCase();
  const b = normalizeTerm(next).toLowerCase();
  if (!a || !b) return false;
  return a.startsWith(b) || b.startsWith(a);
}
