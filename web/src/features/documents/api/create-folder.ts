import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { DocItem } from '../types';
import { reloadDocuments } from './keys';

export interface CreateFolderInput {
  name: string;
  /** null: at the root of My Docs. */
  parent: string | null;
}

/** Creates a folder in My Docs (400 past the depth limit or without a name). */
export function createFolder({ name, parent }: CreateFolderInput): Promise<DocItem> {
  return api.post<DocItem>('/folders', { name, type: 'my', parent });
}

export function useCreateFolder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createFolder, onSuccess: () => reloadDocuments(queryClient) });
}
