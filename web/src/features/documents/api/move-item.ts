import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { DocItem } from '../types';
import { reloadDocuments } from './keys';

export interface MoveInput {
  item: Pick<DocItem, 'id' | 'type'>;
  /** null: the root 'My docs'. */
  destination: string | null;
}

/** Moves a folder or a file within My Docs. */
export function moveItem({ item, destination }: MoveInput): Promise<unknown> {
  return item.type === 'folder'
    ? api.post('/folders/move', { destination, folder: item.id })
    : api.post('/documents/move', { folder: destination, file: item.id });
}

export function useMoveItem() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: moveItem, onSuccess: () => reloadDocuments(queryClient) });
}
