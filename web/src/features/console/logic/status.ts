import type { BadgeTone } from '@/components/Badge';
import type { ContentStatus, HolderHow, Instant, LabelKey, StatusFilter } from '../types';

const STATUS_LABELS: Record<ContentStatus, string> = {
  draft: 'Draft',
  in_review: 'In review',
  approved: 'Approved',
  released: 'Released',
  expired: 'Expired',
  withdrawn: 'Withdrawn',
};

const STATUS_TONES: Record<ContentStatus, BadgeTone> = {
  draft: 'grey',
  in_review: 'orange',
  approved: 'cyan',
  released: 'green',
  expired: 'purple',
  withdrawn: 'red',
};

/** The word shown for a status; an unknown one is shown as the server sends it. */
export function statusLabel(status: string): string {
  return STATUS_LABELS[status as ContentStatus] ?? status.replace(/_/g, ' ');
}

export function statusTone(status: string): BadgeTone {
  return STATUS_TONES[status as ContentStatus] ?? 'grey';
}

/** The filter chips of the lists, in their order; '' shows everything. */
export const STATUS_FILTERS: readonly { value: StatusFilter; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'draft', label: 'Draft' },
  { value: 'in_review', label: 'In review' },
  { value: 'released', label: 'Released' },
  { value: 'expiring', label: 'Expiring within 30 days' },
  { value: 'expired', label: 'Expired' },
  { value: 'withdrawn', label: 'Withdrawn' },
];

/** A filter from the address (`?status=`); anything else shows everything. */
export function parseStatusFilter(value: string | null): StatusFilter {
  return STATUS_FILTERS.some((f) => f.value === value) ? (value as StatusFilter) : '';
}

export const LABELS: readonly { value: LabelKey; label: string }[] = [
  { value: 'for_internal_use', label: 'For internal use' },
  { value: 'controlled_release', label: 'Controlled release' },
  { value: 'upon_request', label: 'Upon request' },
];

export function labelText(key: string): string {
  return LABELS.find((l) => l.value === key)?.label ?? key;
}

export function audienceLabel(audience: string): string {
  return audience === 'us' ? 'US only' : 'Everyone';
}

const HOW_LABELS: Record<HolderHow, string> = {
  opened: 'Opened',
  downloaded: 'Downloaded',
  saved: "Saved in 'My Docs'",
  pinned_offline: 'Kept offline',
  shared: 'Shared',
  sent_externally: 'Sent externally',
};

export function howLabel(how: string): string {
  return HOW_LABELS[how as HolderHow] ?? how.replace(/_/g, ' ');
}

/** Milliseconds of a time the API sends (RFC 3339 or ms); `null` when unset or unreadable. */
export function instantMs(value: Instant | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const whenFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** A date for the lists ('3 Mar 2026'), or '—' when unset. */
export function formatDate(value: Instant | undefined): string {
  const ms = instantMs(value);
  return ms === null ? '—' : dateFormat.format(new Date(ms));
}

/** A date and time ('3 Mar 2026, 14:05'), or '—' when unset. */
export function formatWhen(value: Instant | undefined): string {
  const ms = instantMs(value);
  return ms === null ? '—' : whenFormat.format(new Date(ms));
}

/** What each role may do in the console; anyone else may not open it. */
export interface ConsoleRights {
  /** May open the console at all. */
  view: boolean;
  /** Upload, edit, new versions, submit. */
  publish: boolean;
  /** Approve or reject a submitted version. */
  decide: boolean;
  withdraw: boolean;
  /** May read withdrawal reports. */
  report: boolean;
}

export function consoleRights(role: string | null | undefined): ConsoleRights {
  const publisher = role === 'publisher';
  const approver = role === 'approver';
  const auditor = role === 'auditor';
  return {
    view: publisher || approver || auditor,
    publish: publisher,
    decide: approver,
    withdraw: publisher || approver,
    report: approver || auditor,
  };
}

/** Which lifecycle steps a status allows (the server decides; this only hides useless buttons). */
export function stepsFor(status: string) {
  return {
    submit: status === 'draft',
    decide: status === 'in_review',
    newVersion: status !== 'withdrawn' && status !== 'in_review',
    withdraw: status !== 'withdrawn',
    report: status === 'withdrawn' || status === 'expired',
  };
}

/**
 * Whether a row's title holds every word of the text filter (any case). The server filters by
 * `q` as well; this keeps the list right while its answer is on the way.
 */
export function matchesText(title: string, q: string): boolean {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = title.toLowerCase();
  return words.every((word) => haystack.includes(word));
}
