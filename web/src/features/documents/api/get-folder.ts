import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { DocType, FolderContents } from '../types';
import { documentsKeys } from './keys';

/** A folder's contents and its parent (`back`); 404 when the user cannot see it. */
export function getFolder(id: string, type: DocType, signal?: AbortSignal): Promise<FolderContents> {
  return api.get<FolderContents>(`/folders/${encodeURIComponent(id)}`, { type }, { signal });
}

export const folderQuery = (id: string, type: DocType) =>
  queryOptions({
    queryKey: documentsKeys.folder(id, type),
    queryFn: ({ signal }) => getFolder(id, type, signal),
  });

export function useFolder(id: string, type: DocType, enabled = true) {
  return useQuery({ ...folderQuery(id, type), enabled });
}
