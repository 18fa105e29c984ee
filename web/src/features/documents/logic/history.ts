import type { HistoryEntry, ItemReads } from '../types';

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

/** The entries of the pages loaded so far, in the server's order (newest first). */
export function historyEntries(pages: readonly { entries: HistoryEntry[] }[]): HistoryEntry[] {
  return pages.flatMap((page) => page.entries);
}

/** How often the item was read, in words; null when never. */
export function readsSummary(reads: Pick<ItemReads, 'opens' | 'downloads' | 'readers'>): string | null {
  const { opens, downloads, readers } = reads;
  if (opens + downloads === 0) return null;
  const times = (n: number) => (n === 1 ? 'once' : `${n} times`);
  const parts = [opens > 0 ? `Opened ${times(opens)}` : null, downloads > 0 ? `downloaded ${times(downloads)}` : null]
    .filter((part): part is string => part !== null)
    .join(', ');
  const sentence = parts.charAt(0).toUpperCase() + parts.slice(1);
  return readers > 1 ? `${sentence} by ${readers} people` : sentence;
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
