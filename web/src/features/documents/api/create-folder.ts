import { useMutation, useQueryClient } from '@tanstack/react-query';
import { runCommand, type CommandResult } from '@/lib/offline';
import type { DocItem } from '../types';
import { reloadDocuments } from './keys';

export interface CreateFolderInput {
  name: string;
  /** null: at the root of My Docs. */
  parent: string | null;
}

/**
 * Creates a folder in My Docs (400 past the depth limit or without a name). Offline it is
 * queued and shown as pending in its parent folder until the server has it.
 */
export function createFolder({ name, parent }: CreateFolderInput): Promise<CommandResult<DocItem>> {
  return runCommand<DocItem>({
    kind: 'create_folder',
    path: '/folders',
    body: { name, type: 'my', parent },
    label: `Create folder “${name}”`,
    folder: parent,
  });
}

export function useCreateFolder() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createFolder, onSuccess: () => reloadDocuments(queryClient) });
}
