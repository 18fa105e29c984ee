import { normalizeTerm } from './term';

/** Query parameter of /search holding the term (spec 2.2). */
export const STRING_PARAM = 'string';
/** Query parameter of /search holding the selected section chip. */
export const SECTION_PARAM = 'section';

/** The server call: GET /search-new?term=... */
export const SEARCH_API_PATH = '/search-new';

export function searchApiQuery(term: string): { term: string } {
  return { term: normalizeTerm(term) };
}

/** The term in a /search address (untrimmed, as the user left it). */
export function termFromParams(params: URLSearchParams): string {
  return params.get(STRING_PARAM) ?? '';
}

/**
 * The /search query for a new term: ?string follows the term (dropped when
 * empty), and a new term starts again from the 'All' chip. Other parameters stay.
 */
export function paramsWithTerm(current: URLSearchParams, term: string): URLSearchParams {
  const next = new URLSearchParams(current);
  const trimmed = normalizeTerm(term);
  if (trimmed) next.set(STRING_PARAM, trimmed);
  else next.delete(STRING_PARAM);
  next.delete(SECTION_PARAM);
  return next;
}

/** The /search query with a section chip selected ('all' or null removes it). */
export function paramsWithSection(current: URLSearchParams, section: string | null): URLSearchParams {
  const next = new URLSearchParams(current);
  if (section && section !== 'all') next.set(SECTION_PARAM, section);
  else next.delete(SECTION_PARAM);
  return next;
}
