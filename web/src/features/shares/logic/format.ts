import { formatTimestamp } from '@/lib/dates';
import type { PageTime, ShareState, ShareView } from '../types';

/** '0:42', '12:05', '1:02:03': time spent on a page. */
export function formatDwell(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** 'p. 1 · 0:42' for each page read, in page order. */
export function pageLines(pages: readonly PageTime[]): string[] {
  return [...pages].sort((a, b) => a.page - b.page).map((p) => `p. ${p.page} · ${formatDwell(p.seconds)}`);
}

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

/** '16 November 2026' in the reader's time zone. */
export function formatDay(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? '' : dayFormat.format(date);
}

/** When something happened, to the second. */
export const formatMoment = formatTimestamp;

const STATE_LABELS: Record<ShareState, string> = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Revoked',
  used_up: 'Open limit reached',
  ended: 'Document withdrawn',
};

/** The label of a state; a state this app does not know yet is shown as the server names it. */
export function stateLabel(state: string): string {
  return Object.hasOwn(STATE_LABELS, state) ? STATE_LABELS[state as ShareState] : state;
}

/** The state line of a share: live until when, or since when and why it stopped. */
export function stateLine(share: Pick<ShareView, 'state' | 'expires_at' | 'revoked_at'>): string {
  switch (share.state) {
    case 'active':
      return `Expires ${formatMoment(share.expires_at)}`;
    case 'expired':
      return `Expired ${formatMoment(share.expires_at)}`;
    case 'revoked':
      return share.revoked_at ? `Revoked ${formatMoment(share.revoked_at)}` : 'Revoked';
    default:
      return stateLabel(share.state);
  }
}

/** 'Opened 3 times' / 'Not opened yet', with the limit when there is one. */
export function opensLine(share: Pick<ShareView, 'opens' | 'max_opens'>): string {
  const limit = share.max_opens ? ` (limit ${share.max_opens})` : '';
  if (share.opens === 0) return `Not opened yet${limit}`;
  return `Opened ${share.opens} ${share.opens === 1 ? 'time' : 'times'}${limit}`;
}

/** 'Downloaded 2 times', or null when never (or nothing to say for view-only links). */
export function downloadsLine(share: Pick<ShareView, 'downloads' | 'allow_download'>): string {
  if (!share.allow_download) return 'View only';
  if (share.downloads === 0) return 'Not downloaded';
  return `Downloaded ${share.downloads} ${share.downloads === 1 ? 'time' : 'times'}`;
}

/** The words of the revoke confirmation. */
export function revokeQuestion(recipient: string): string {
  return `Revoke this link? ${recipient} will no longer be able to open it.`;
}

/** The toast of a first open, in the open app (and the push). */
export function openedToast(recipient: string, title: string): string {
  return `${recipient} opened "${title}"`;
}
