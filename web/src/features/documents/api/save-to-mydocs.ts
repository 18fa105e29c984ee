import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { reloadDocuments } from './keys';

/** Saves a copy of a shared or US file in My Docs (root). */
export function saveToMyDocs(file: string): Promise<unknown> {
  return api.post('/documents/favorite', { folder: null, file });
}

export function useSaveToMyDocs() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveToMyDocs, onSuccess: () => reloadDocuments(queryClient) });
}
