import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { fetchBinary, type FetchedFile } from '@/lib/files';
import type { Query } from '../logic/filters';
import type { ActivityPage } from '../types';
import { auditKeys } from './keys';

/** One page of the company's activity, older than the cursor `before`. */
export function getActivity(query: Query, before: string | null, signal?: AbortSignal): Promise<ActivityPage> {
  return api.get<ActivityPage>('/audit/activity', { ...query, before: before ?? undefined }, { signal });
}

export const activityQueryOptions = (query: Query | null) =>
  infiniteQueryOptions({
    queryKey: auditKeys.activity(query ?? {}),
    queryFn: ({ pageParam, signal }) => getActivity(query ?? {}, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: query !== null,
    staleTime: 0,
  });

export function useActivity(query: Query | null) {
  return useInfiniteQuery(activityQueryOptions(query));
}

/** Every entry of the filters as CSV. */
export function fetchActivityCsv(query: Query): Promise<FetchedFile> {
  return fetchBinary(api.url('/audit/activity.csv', query));
}
