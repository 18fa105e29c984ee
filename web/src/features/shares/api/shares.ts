import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { SentPage, ShareView } from '../types';
import { sharesKeys } from './keys';

/** The Sent view loads this many shares at a time. */
export const SENT_PAGE_SIZE = 50;

/** The external shares of a document the user may see (all of them for its owner, their own for a sender). */
export function getItemShares(id: string, signal?: AbortSignal): Promise<ShareView[]> {
  return api.get<ShareView[]>(`/documents/${encodeURIComponent(id)}/shares`, undefined, { signal });
}

/** One page of the user's own external shares, newest first, older than `before`. */
export function getSentShares(before: string | null, signal?: AbortSignal): Promise<SentPage> {
  return api.get<SentPage>('/documents/shares', { limit: SENT_PAGE_SIZE, before: before ?? undefined }, { signal });
}

/** Takes a link back at once; revoking twice changes nothing. */
export function revokeShare(shareId: string): Promise<ShareView> {
  return api.post<ShareView>(`/documents/shares/${encodeURIComponent(shareId)}/revoke`);
}

export const itemSharesQuery = (id: string) =>
  queryOptions({
    queryKey: sharesKeys.item(id),
    queryFn: ({ signal }) => getItemShares(id, signal),
    staleTime: 0,
    enabled: id !== '',
  });

export const sentSharesQuery = () =>
  infiniteQueryOptions({
    queryKey: sharesKeys.sent(),
    queryFn: ({ pageParam, signal }) => getSentShares(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next ?? undefined,
    staleTime: 0,
  });

export function useItemShares(id: string) {
  return useQuery(itemSharesQuery(id));
}

export function useSentShares() {
  return useInfiniteQuery(sentSharesQuery());
}

/** Revokes a link; every shares screen refreshes. */
export function useRevokeShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeShare,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sharesKeys.all }),
  });
}
