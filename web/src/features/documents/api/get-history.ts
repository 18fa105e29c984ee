import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { ItemHistory } from '../types';
import { documentsKeys } from './keys';

/** Everything that happened to a document or folder: who, what, when, from where to where. */
export function getHistory(id: string, signal?: AbortSignal): Promise<ItemHistory> {
  return api.get<ItemHistory>(`/documents/${encodeURIComponent(id)}/history`, undefined, { signal });
}

export const historyQuery = (id: string) =>
  queryOptions({
    queryKey: documentsKeys.history(id),
    queryFn: ({ signal }) => getHistory(id, signal),
    staleTime: 0,
  });

export function useHistory(id: string) {
  return useQuery(historyQuery(id));
}
