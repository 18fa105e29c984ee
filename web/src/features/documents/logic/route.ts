import type { DocType, FolderRef } from '../types';
import { isDocType } from './tabs';

/** Address of a folder's screen. */
export function folderPath(id: string, type: DocType): string {
  return `/documents/folder/${encodeURIComponent(id)}?type=${type}`;
}

/** Address of a tab of the documents screen. */
export function tabPath(type: DocType): string {
  return `/documents?tab=${type}`;
}

/** Address of an item's history. */
export function historyPath(id: string): string {
  return `/documents/history/${encodeURIComponent(id)}`;
}

/** Address of a document's external shares and their engagement (the shares feature's screen). */
export function sharesPath(id: string): string {
  return `/documents/${encodeURIComponent(id)}/shares`;
}

/** Address of the user's sent external shares (the shares feature's screen). */
export const SENT_PATH = '/documents/sent';

export type FolderRoute = { ok: true; id: string; type: DocType } | { ok: false };

/** A folder screen needs an id and a valid type; otherwise it errors and returns to /documents. */
export function parseFolderRoute(id: string | undefined, type: string | null): FolderRoute {
  if (!id || !id.trim() || !isDocType(type)) return { ok: false };
  return { ok: true, id, type };
}

/** Back from a folder: its parent, or the tab it belongs to. */
export function folderBackPath(back: FolderRef | null | undefined, type: DocType): string {
  return back ? folderPath(back.id, type) : tabPath(type);
}
