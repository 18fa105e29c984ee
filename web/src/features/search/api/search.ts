import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { isApiError } from '@/lib/api/errors';
import { continuesTerm, isSearchable, normalizeTerm } from '../logic/term';
import { SEARCH_API_PATH, searchApiQuery } from '../logic/url';
import type { SearchResults } from '../types';

/** GET /search-new?term= */
export function fetchSearch(term: string, signal?: AbortSignal): Promise<SearchResults> {
  return api.get<SearchResults>(SEARCH_API_PATH, searchApiQuery(term), { signal });
}

export const searchKeys = {
  all: ['search'] as const,
  term: (term: string) => [...searchKeys.all, normalizeTerm(term)] as const,
};

/**
 * One cache entry per term, so an answer can only ever land under its own
 * term: a slow answer for "kne" never replaces the one for "knee". The query
 * hands its abort signal to fetch, so a term the screen has moved past is
 * cancelled. While the next term loads, the previous results stay on screen
 * (marked as placeholder) if the new term only extends or shortens them.
 */
export const searchQuery = (term: string) =>
  queryOptions({
    queryKey: searchKeys.term(term),
    queryFn: ({ signal }) => fetchSearch(term, signal),
    // The server refuses short terms; they are never sent.
    enabled: isSearchable(term),
    placeholderData: (previous, previousQuery) =>
      previousQuery && continuesTerm(String(previousQuery.queryKey[1]), term) ? previous : undefined,
    // One more try for a network or server failure, none for a refusal.
    retry: (failureCount, error) =>
      failureCount < 1 && !(isApiError(error) && error.status >= 400 && error.status < 500),
  });

export function useSearch(term: string) {
  return useQuery(searchQuery(term));
}
