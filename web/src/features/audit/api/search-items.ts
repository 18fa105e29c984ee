import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { Query } from '../logic/filters';
import type { AuditItem } from '../types';
import { auditKeys } from './keys';

/** Items per request of the search. */
export const ITEMS_PAGE = 50;

/** Documents and folders of everyone (deleted ones included), `offset` onwards. */
export function searchItems(query: Query, offset: number, signal?: AbortSignal): Promise<AuditItem[]> {
  return api.get<AuditItem[]>('/audit/items', { ...query, limit: ITEMS_PAGE, offset }, { signal });
}

export const itemsQueryOptions = (query: Query | null) =>
  infiniteQueryOptions({
    queryKey: auditKeys.items(query ?? {}),
    queryFn: ({ pageParam, signal }) => searchItems(query ?? {}, pageParam, signal),
    initialPageParam: 0,
    // A full page may have more behind it.
    getNextPageParam: (last, pages) => (last.length === ITEMS_PAGE ? pages.length * ITEMS_PAGE : undefined),
    enabled: query !== null,
    staleTime: 0,
  });

/** `null`: nothing asked yet. */
export function useItemSearch(query: Query | null) {
  return useInfiniteQuery(itemsQueryOptions(query));
}
