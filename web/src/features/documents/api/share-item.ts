import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { ShareKind } from '../logic/actions';

export interface ShareInput {
  kind: ShareKind;
  id: string;
  email: string;
}

/** The call and body of each kind of share. */
export function shareRequest({ kind, id, email }: ShareInput): { path: string; body: Record<string, string> } {
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

/** What the server answers; internal shares name the recipient as it was matched. */
export interface ShareResult {
  recipient?: string;
}

export function shareItem(input: ShareInput): Promise<ShareResult | null> {
  const { path, body } = shareRequest(input);
  return api.post<ShareResult | null>(path, body);
}

/** A share changes nothing in the sharer's own lists, so nothing reloads. */
export function useShareItem() {
  return useMutation({ mutationFn: shareItem });
}
