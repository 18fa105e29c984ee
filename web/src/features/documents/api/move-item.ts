import { useMutation, useQueryClient } from '@tanstack/react-query';
import { runCommand, type CommandResult } from '@/lib/offline';
import type { DocItem } from '../types';
import { reloadDocuments } from './keys';

export interface MoveInput {
  item: Pick<DocItem, 'id' | 'type'>;
  /** null: the root 'My docs'. */
  destination: string | null;
}

/** Moves a folder or a file within My Docs. Queued when offline. */
export function moveItem({
  item,
  destination,
  title,
}: MoveInput & { title?: string }): Promise<CommandResult<unknown>> {
  const label = `Move “${title ?? item.id}”`;
  return item.type === 'folder'
    ? runCommand({ kind: 'move', path: '/folders/move', body: { destination, folder: item.id }, label })
    : runCommand({ kind: 'move', path: '/documents/move', body: { folder: destination, file: item.id }, label });
}

export function useMoveItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MoveInput & { title?: string }) => moveItem(input),
    onSuccess: () => reloadDocuments(queryClient),
  });
}
