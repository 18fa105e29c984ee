import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { reloadDocuments } from './keys';

export interface RenameInput {
  id: string;
  name: string;
}

/** Renames a folder or a file: ids are unique across both. */
export function renameItem({ id, name }: RenameInput): Promise<unknown> {
  return api.post(`/folders/${encodeURIComponent(id)}`, { name });
}

export function useRenameItem() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: renameItem, onSuccess: () => reloadDocuments(queryClient) });
}
