import { useMutation } from '@tanstack/react-query';
import type { components } from '@/lib/api/schema';
import { runCommand, type CommandResult } from '@/lib/offline';
import type { ShareKind } from '../logic/actions';

type Schemas = components['schemas'];

export interface ShareInput {
  kind: ShareKind;
  id: string;
  email: string;
}

/** The call and body of each kind of share. */
export function shareRequest({ kind, id, email }: ShareInput): {
  path: string;
  body: Schemas['ShareFileBody'] | Schemas['ShareFolderBody'];
} {
  switch (kind) {
    case 'folder':
      return { path: '/folders/share', body: { email, folder: id } };
    case 'internal':
      return { path: '/documents/share', body: { email, file: id } };
    case 'storage':
      return { path: '/documents/storage-share', body: { email, file: id } };
    case 'external':
      return { path: '/documents/external-share', body: { email, file: id } };
  }
}

/**
 * What the server answers: internal shares name the recipient as it was matched
 * and give the shared item; external shares say when the link expires.
 */
export type ShareResult = Schemas['Shared'] | Schemas['ExternalShare'];

/** Shares an item; offline, the share is queued and sent when the network returns. */
export function shareItem(input: ShareInput & { title?: string }): Promise<CommandResult<ShareResult | null>> {
  const { path, body } = shareRequest(input);
  return runCommand<ShareResult | null>({
    kind: 'share',
    path,
    body,
    label: `Share “${input.title ?? input.id}” with ${input.email}`,
  });
}

/** A share changes nothing in the sharer's own lists, so nothing reloads. */
export function useShareItem() {
  return useMutation({ mutationFn: (input: ShareInput & { title?: string }) => shareItem(input) });
}
