import type { ActivityFilters, ItemFilters } from '../types';

export const EMPTY_ITEM_FILTERS: ItemFilters = {
  q: '',
  owner: '',
  type: '',
  status: '',
  date: 'created',
  from: '',
  to: '',
};

export const EMPTY_ACTIVITY_FILTERS: ActivityFilters = { user: '', action: '', from: '', to: '' };

export type Query = Record<string, string | number | boolean | undefined>;

/** Midnight (local time) of a `yyyy-mm-dd` date, as RFC 3339; `days` later when given. */
export function dayToIso(day: string, days = 0): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day.trim());
  if (!match) return undefined;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** A `datetime-local` value (local time) as RFC 3339. */
export function localToIso(value: string): string | undefined {
  if (!value.trim()) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function text(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed ? trimmed : undefined;
}

/** The query of `GET /audit/items` for the form's filters; `to` includes its whole day. */
export function itemsQuery(filters: ItemFilters): Query {
  return {
    q: text(filters.q),
    owner: text(filters.owner),
    type: text(filters.type),
    deleted: filters.status === 'deleted' ? true : filters.status === 'current' ? false : undefined,
    date: filters.from || filters.to ? filters.date : undefined,
    from: dayToIso(filters.from),
    to: dayToIso(filters.to, 1),
  };
}

/** The query of `GET /audit/activity` (and its CSV) for the form's filters. */
export function activityQuery(filters: ActivityFilters): Query {
  return {
    user: text(filters.user),
    action: text(filters.action),
    from: localToIso(filters.from),
    to: localToIso(filters.to),
  };
}

/** The actions of the activity filter, with the words history uses. */
export const ACTIONS: readonly { value: string; label: string }[] = [
  { value: 'created', label: 'Created' },
  { value: 'uploaded', label: 'Uploaded' },
  { value: 'renamed', label: 'Renamed' },
  { value: 'moved', label: 'Moved' },
  { value: 'shared', label: 'Shared' },
  { value: 'shared_externally', label: 'Shared externally' },
  { value: 'saved_to_mydocs', label: "Saved in 'My Docs'" },
  { value: 'moved_to_mydocs', label: "Moved to 'My Docs'" },
  { value: 'opened', label: 'Opened' },
  { value: 'downloaded', label: 'Downloaded' },
  { value: 'removed', label: 'Removed' },
  { value: 'deleted', label: 'Deleted' },
];

export function actionLabel(action: string): string {
  return ACTIONS.find((a) => a.value === action)?.label ?? action.replace(/_/g, ' ');
}

const whenFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

export function formatWhen(ms: number): string {
  return whenFormat.format(new Date(ms));
}

/** A `datetime-local` value for a time (local, to the minute). */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Files: their format in capitals; folders: 'Folder'. */
export function typeLabel(item: { type: string; format?: string | null }): string {
  if (item.type === 'folder') return 'Folder';
  return item.format ? item.format.toUpperCase() : 'File';
}
