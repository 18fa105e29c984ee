import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { DocItem } from '../types';
import { reloadDocuments } from './keys';

/** Deletes a folder, or removes a file from My Docs. */
export function deleteItem(item: Pick<DocItem, 'id' | 'type'>): Promise<unknown> {
  return item.type === 'folder'
    ? api.post(`/folders/${encodeURIComponent(item.id)}/delete`)
    : api.post('/documents/remove', { id: item.id });
}

export function useDeleteItem() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteItem, onSuccess: () => reloadDocuments(queryClient) });
}
