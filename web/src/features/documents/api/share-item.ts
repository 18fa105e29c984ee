import { useMutation } from '@tanstack/react-query';
import type { components } from '@/lib/api/schema';
import { runCommand, type CommandResult } from '@/lib/offline';
import type { ShareKind } from '../logic/actions';

type Schemas = components['schemas'];

/** The options of an external share's link (the server's defaults when left out). */
export interface LinkOptions {
  expires_in_days: number;
  allow_download: boolean;
  max_opens: number | null;
}

/** An external share's body: the file, the recipient and the link's options. */
type ExternalShareBody = Schemas['ExternalShareBody'];

export interface ShareInput {
  kind: ShareKind;
  id: string;
  email: string;
  /** External shares only. */
  link?: LinkOptions;
}

/** The call and body of each kind of share. */
export function shareRequest({ kind, id, email, link }: ShareInput): {
  path: string;
  body: Schemas['ShareFileBody'] | Schemas['ShareFolderBody'] | ExternalShareBody;
} {
  switch (kind) {
    case 'folder':
      return { path: '/folders/share', body: { email, folder: id } };
    case 'internal':
      return { path: '/documents/share', body: { email, file: id } };
    case 'storage':
      return { path: '/documents/storage-share', body: { email, file: id } };
    case 'external': {
      const body: ExternalShareBody = { email, file: id };
      if (link) {
        body.expires_in_days = link.expires_in_days;
        body.allow_download = link.allow_download;
        if (link.max_opens !== null) body.max_opens = link.max_opens;
      }
      return { path: '/documents/external-share', body };
    }
  }
}

/**
 * What the server answers: internal shares name the recipient as it was matched
 * and give the shared item; external shares say when the link expires, and the share's id.
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
