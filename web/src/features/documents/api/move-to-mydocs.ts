import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { DocItem } from '../types';
import { reloadDocuments } from './keys';

/** Moves a shared item into My Docs: `type` is the item's type, `source` its id. */
export function moveToMyDocs(item: Pick<DocItem, 'id' | 'type'>): Promise<unknown> {
  return api.post('/folders/mydocs', { type: item.type, source: item.id });
}

export function useMoveToMyDocs() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: moveToMyDocs, onSuccess: () => reloadDocuments(queryClient) });
}
