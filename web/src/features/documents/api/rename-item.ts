import { useMutation, useQueryClient } from '@tanstack/react-query';
import { runCommand, type CommandResult } from '@/lib/offline';
import { reloadDocuments } from './keys';

export interface RenameInput {
  id: string;
  name: string;
  /** The current name, for the pending label. */
  previous?: string;
}

/** Renames a folder or a file: ids are unique across both. Queued when offline. */
export function renameItem({ id, name, previous }: RenameInput): Promise<CommandResult<unknown>> {
  return runCommand({
    kind: 'rename',
    path: `/folders/${encodeURIComponent(id)}`,
    body: { name },
    label: `Rename “${previous ?? id}” to “${name}”`,
  });
}

export function useRenameItem() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: renameItem, onSuccess: () => reloadDocuments(queryClient) });
}
