/**
 * Shapes of the tracked external shares API (written from the API contract; the generated
 * OpenAPI types replace them where they match).
 */

/** Where a link stands: live, or why it no longer opens. */
export type ShareState = 'active' | 'expired' | 'revoked' | 'used_up' | 'ended';

export interface PageTime {
  page: number;
  /** Whole seconds spent on the page, all opens together. */
  seconds: number;
}

/** One external share of a document with what the recipient did with it. Times in ms since the epoch. */
export interface ShareView {
  id: string;
  recipient: string;
  sent_at: number;
  expires_at: number;
  revoked_at: number | null;
  opens: number;
  last_opened_at: number | null;
  downloads: number;
  pages: PageTime[];
  possibly_forwarded: boolean;
  allow_download: boolean;
  max_opens: number | null;
  state: ShareState;
  sender: { id: string | number; name: string };
}

/** A share of the Sent view: with the document it is of. */
export interface SentShare extends ShareView {
  item: { id: string; title: string };
}

export interface SentPage {
  shares: SentShare[];
  next: string | null;
}

/** What the recipient's viewer learns of a live link (never the sender's e-mail). */
export interface LinkInfo {
  company: string;
  sender: { name: string };
  sent_at: number;
  expires_at: number;
  title: string;
  kind: 'pdf' | 'xls';
  allow_download: boolean;
  size: number;
}

/** The options of a new external share. */
export interface ShareOptions {
  expires_in_days: number;
  allow_download: boolean;
  max_opens: number | null;
}
