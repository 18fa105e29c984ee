import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { FolderAsOf } from '../types';
import { documentsKeys } from './keys';

/** A folder's contents as they were at a past time (ISO). */
export function getFolderAsOf(id: string, at: string, signal?: AbortSignal): Promise<FolderAsOf> {
  return api.get<FolderAsOf>(`/folders/${encodeURIComponent(id)}/as-of`, { at }, { signal });
}

export const folderAsOfQuery = (id: string, at: string) =>
  queryOptions({
    queryKey: documentsKeys.asOf(id, at),
    queryFn: ({ signal }) => getFolderAsOf(id, at, signal),
    // The past does not change.
    staleTime: Infinity,
  });

export function useFolderAsOf(id: string, at: string | null) {
  return useQuery({ ...folderAsOfQuery(id, at ?? ''), enabled: at !== null });
}
