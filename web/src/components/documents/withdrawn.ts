import { isApiError } from '@/lib/api/errors';
import { formatTimestamp } from '@/lib/dates';

/** `ItemView.withdrawn` and the body of a 410 from a file route (`WithdrawnBody` of the server). */
export interface Withdrawal {
  state: 'withdrawn' | 'expired';
  reason: string;
  /** When it happened (ms). */
  at: number;
  replacement?: { id: number; title: string; url: string } | null;
}

export const WITHDRAWN_TAG = 'Withdrawn';
export const EXPIRED_TAG = 'Expired';
export const UPDATED_TAG = 'Updated';
export const WITHDRAWN_MESSAGE = 'This document was withdrawn.';
export const EXPIRED_MESSAGE = 'This document has expired.';
export const OPEN_REPLACEMENT = 'Open the replacement';

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function time(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return /^\d+$/.test(value) ? Number(value) : Date.parse(value) || 0;
  return 0;
}

/** Reads a withdrawal (an item's `withdrawn`, a 410 body); null when there is none. */
export function readWithdrawal(value: unknown): Withdrawal | null {
  const body = record(value);
  if (body.state !== 'withdrawn' && body.state !== 'expired') return null;
  const replacement = record(body.replacement);
  const id = typeof replacement.id === 'number' ? replacement.id : Number(replacement.id);
  return {
    state: body.state,
    reason: typeof body.reason === 'string' ? body.reason : '',
    at: time(body.at),
    replacement:
      Number.isSafeInteger(id) && typeof replacement.title === 'string'
        ? {
            id,
            title: replacement.title,
            url: typeof replacement.url === 'string' && replacement.url ? replacement.url : `/api/library/${id}/file`,
          }
        : null,
  };
}

/** A file route's 410: the document was withdrawn or expired, and why. */
export function withdrawalOfError(error: unknown): Withdrawal | null {
  if (!isApiError(error) || error.status !== 410) return null;
  return (
    readWithdrawal(error.body) ?? {
      state: /expired/i.test(error.serverMessage ?? '') ? 'expired' : 'withdrawn',
      reason: '',
      at: 0,
      replacement: null,
    }
  );
}

/** Address of the page of a withdrawn document item (a copy in My Docs, a company item). */
export function withdrawnItemPath(id: string): string {
  return `/documents/${encodeURIComponent(id)}/withdrawn`;
}

/** Address of the page of a withdrawn library document. */
export function withdrawnLibraryPath(id: number | string): string {
  return `/library/${encodeURIComponent(String(id))}/withdrawn`;
}

/** The page for a file address that answered 410: its item's or its library document's. */
export function withdrawnPathOfUrl(url: string): string | null {
  const path = url.split('?')[0] ?? url;
  const library = /\/library\/(\d+)\/file$/.exec(path);
  if (library?.[1]) return withdrawnLibraryPath(library[1]);
  const item = /\/documents\/([^/]+)\/file$/.exec(path);
  if (item?.[1]) return withdrawnItemPath(decodeURIComponent(item[1]));
  return null;
}

/** What the page and the tile say about a withdrawal. */
export function withdrawalText(w: Withdrawal): { tag: string; message: string; when: string; reason: string } {
  const expired = w.state === 'expired';
  const at = w.at > 0 ? formatTimestamp(w.at) : '';
  return {
    tag: expired ? EXPIRED_TAG : WITHDRAWN_TAG,
    message: expired ? EXPIRED_MESSAGE : WITHDRAWN_MESSAGE,
    when: at ? `${expired ? 'Expired' : 'Withdrawn'} on ${at}` : '',
    reason: w.reason.trim(),
  };
}

/** What the withdrawn page is handed by the screen that leads to it. */
export interface WithdrawnPageState {
  withdrawal: Withdrawal;
  title?: string;
}

export function readWithdrawnPageState(state: unknown): WithdrawnPageState | null {
  const value = record(state);
  const withdrawal = readWithdrawal(value.withdrawal);
  if (!withdrawal) return null;
  return { withdrawal, ...(typeof value.title === 'string' ? { title: value.title } : {}) };
}

/** Where tapping a withdrawn copy leads, with what the page shows. */
export function withdrawnRoute(item: {
  id: string;
  title?: string | null;
  name: string;
  withdrawn?: Withdrawal | null;
}): [string, { state: WithdrawnPageState | null }] {
  const title = item.title || item.name;
  return [withdrawnItemPath(item.id), { state: item.withdrawn ? { withdrawal: item.withdrawn, title } : null }];
}
