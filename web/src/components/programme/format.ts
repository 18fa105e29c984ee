const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function parts(iso: string): { y: number; m: number; d: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso ?? '');
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  return { y, m, d };
}

/** `2026-01-22` -> `22 January 2026` (the text as it is, when it is not a date). */
export function formatDate(iso: string): string {
  const p = parts(iso);
  return p ? `${p.d} ${MONTHS[p.m - 1]} ${p.y}` : iso;
}

/** `2026-01-22` -> `Thursday 22 January 2026`. */
export function formatDay(iso: string): string {
  const p = parts(iso);
  if (!p) return iso;
  const weekday = WEEKDAYS[new Date(Date.UTC(p.y, p.m - 1, p.d)).getUTCDay()];
  return `${weekday} ${formatDate(iso)}`;
}

/** `22 January 2026, 08:00`, or the date alone. */
export function formatDateTime(iso: string, time?: string | null): string {
  return time ? `${formatDate(iso)}, ${time}` : formatDate(iso);
}

/** One day or a range: `14 March 2026`, `14 March 2026 – 16 March 2026`. */
export function formatRange(from: string, to: string): string {
  return from === to ? formatDate(from) : `${formatDate(from)} – ${formatDate(to)}`;
}
