import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { documentsKeys } from './keys';

/** Colleagues' e-mails matching what was typed. */
export function getShareList(search: string, signal?: AbortSignal): Promise<string[]> {
  return api.get<string[]>('/users/share-list', { search }, { signal });
}

export const shareListQuery = (search: string) =>
  queryOptions({
    queryKey: documentsKeys.recipients(search),
    queryFn: ({ signal }) => getShareList(search, signal),
    staleTime: 60_000,
  });

/** Runs only with a search (more than 3 characters typed, see `recipientSearch`). */
export function useShareList(search: string | null) {
  return useQuery({
    ...shareListQuery(search ?? ''),
    enabled: search !== null,
    placeholderData: keepPreviousData,
  });
}
