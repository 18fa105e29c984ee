import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { FolderNode } from '../types';
import { documentsKeys } from './keys';

/** The user's My Docs folder tree (move dialog). */
export function getFolderTree(signal?: AbortSignal): Promise<FolderNode[]> {
  return api.get<FolderNode[]>('/folders/list', undefined, { signal });
}

export const folderTreeQuery = () =>
  queryOptions({
    queryKey: documentsKeys.tree(),
    queryFn: ({ signal }) => getFolderTree(signal),
    // The dialog must never offer a folder that was just deleted or moved.
    staleTime: 0,
  });

export function useFolderTree(enabled: boolean) {
  return useQuery({ ...folderTreeQuery(), enabled });
}
