import { useMutation, useQueryClient } from '@tanstack/react-query';
import { runCommand, type CommandResult } from '@/lib/offline';
import { reloadDocuments } from './keys';

/** Saves a copy of a shared or US file in My Docs (root). Queued when offline. */
export function saveToMyDocs(file: string, title?: string): Promise<CommandResult<unknown>> {
  return runCommand({
    kind: 'save_to_mydocs',
    path: '/documents/favorite',
    body: { folder: null, file },
    label: `Save “${title ?? file}” to My Docs`,
  });
}

export function useSaveToMyDocs() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: { id: string; title?: string }) => saveToMyDocs(item.id, item.title),
    onSuccess: () => reloadDocuments(queryClient),
  });
}
