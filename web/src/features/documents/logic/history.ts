import type { HistoryEntry } from '../types';

const LABELS: Record<string, string> = {
  created: 'Created',
  uploaded: 'Uploaded',
  renamed: 'Renamed',
  moved: 'Moved',
  shared: 'Shared',
  shared_externally: 'Shared externally',
  saved_to_mydocs: "Saved in 'My Docs'",
  moved_to_mydocs: "Moved to 'My Docs'",
  opened: 'Opened',
  downloaded: 'Downloaded',
  removed: 'Removed',
  deleted: 'Deleted',
};

/** What happened, in words; an action the app does not know yet is still readable. */
export function historyActionLabel(action: string): string {
  const known = LABELS[action];
  if (known) return known;
  const words = action.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Changed';
}

/** "from → to" of a rename or move; "→ to" or "from →" when only one side is known. */
export function historyChange(entry: Pick<HistoryEntry, 'from' | 'to'>): string | null {
  const from = entry.from?.trim();
  const to = entry.to?.trim();
  if (!from && !to) return null;
  if (!from) return `→ ${to}`;
  if (!to) return `${from} →`;
  return `${from} → ${to}`;
}

/** Newest first, ties kept in the server's order. */
export function newestFirst(entries: HistoryEntry[]): HistoryEntry[] {
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => b.entry.at - a.entry.at || b.index - a.index)
    .map(({ entry }) => entry);
}

const whenFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

export function formatWhen(ms: number): string {
  return whenFormat.format(new Date(ms));
}

/** Value of a `datetime-local` input for a time (local time, to the minute). */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** ISO time of a `datetime-local` value, the end of that minute (so changes made during it count). */
export function localInputToIso(value: string): string | null {
  const ms = new Date(value).getTime();
  if (!value || Number.isNaN(ms)) return null;
  return new Date(ms + 59_999).toISOString();
}
