import type { SentPage, SentShare } from '../types';

/** Address of a document's Shares screen; the documents feature builds the same one. */
export function sharesPath(id: string): string {
  return `/documents/${encodeURIComponent(id)}/shares`;
}

/** The document title handed over by the screen that opened the Shares screen, if any. */
export function titleFromState(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const title = (state as Record<string, unknown>).title;
  return typeof title === 'string' && title.trim() ? title : null;
}

/** The shares of the loaded pages of the Sent view, once each (a page boundary may repeat one). */
export function sentShares(pages: readonly SentPage[]): SentShare[] {
  const seen = new Set<string>();
  const out: SentShare[] = [];
  for (const page of pages) {
    for (const share of page.shares) {
      if (seen.has(share.id)) continue;
      seen.add(share.id);
      out.push(share);
    }
  }
  return out;
}
