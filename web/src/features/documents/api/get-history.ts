import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { ItemHistory } from '../types';
import { documentsKeys } from './keys';

/**
 * One page of what happened to a document or folder (who, what, when, from where to where),
 * newest first: the entries older than the cursor `before` (the newest when null).
 */
export function getHistory(id: string, before: string | null, signal?: AbortSignal): Promise<ItemHistory> {
  return api.get<ItemHistory>(
    `/documents/${encodeURIComponent(id)}/history`,
    { before: before ?? undefined },
    { signal },
  );
}

export const historyQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: documentsKeys.history(id),
    queryFn: ({ pageParam, signal }) => getHistory(id, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next ?? undefined,
    staleTime: 0,
  });

export function useHistory(id: string) {
  return useInfiniteQuery(historyQuery(id));
}
