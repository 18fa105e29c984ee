/**
 * The app's date texts, in one place: '16 Nov 2026' in lists, '22 January 2026' and
 * 'Thursday 22 January 2026' in programmes, '16 Nov 2026, 14:03:05' for history entries.
 *
 * Built from `Intl.DateTimeFormat` parts so the order and the month names stay the same in
 * every browser: the 'en-GB' short month of September is 'Sept' in recent ICU versions, and
 * its weekday is followed by a comma; the app writes 'Sep' and no comma.
 */

/** Formatters are costly to create: one per style, made on first use. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat('en-US', { ...options, hourCycle: 'h23' });
    formatters.set(key, cached);
  }
  return cached;
}

type PartName = 'weekday' | 'day' | 'month' | 'year' | 'hour' | 'minute' | 'second';

function parts(format: Intl.DateTimeFormat, date: Date): Record<PartName, string> {
  const out: Record<PartName, string> = { weekday: '', day: '', month: '', year: '', hour: '', minute: '', second: '' };
  for (const part of format.formatToParts(date)) {
    if (part.type in out) out[part.type as PartName] = part.value;
  }
  return out;
}

const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A calendar day, optionally followed by a time ('2026-04-20T09:00:00Z'). */
const ISO_PREFIX = /^\d{4}-\d{2}-\d{2}(T|$)/;

/**
 * The instant of an ISO date ('2026-01-22', read as that calendar day in UTC) or ISO date-time;
 * null for anything else, including impossible days such as '2026-02-30'.
 */
export function parseIsoDate(value: string | null | undefined): Date | null {
  if (!value || !ISO_PREFIX.test(value)) return null;
  const day = CALENDAR_DAY.exec(value);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const date = new Date(Date.UTC(y, m - 1, d));
    // Date.UTC rolls '2026-02-30' over to 2 March: refuse instead.
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? date : null;
  }
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * '16 Nov 2026' (lists, news, search, notifications). Server dates are shown in UTC, so a
 * calendar day never moves with the reader's time zone. Unreadable input gives `unreadable`
 * (the text itself unless told otherwise).
 */
export function formatShortDate(value: string, unreadable: string = value): string {
  const date = parseIsoDate(value);
  if (!date) return unreadable;
  const p = parts(formatter('short', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }), date);
  return `${p.day} ${p.month} ${p.year}`;
}

/** '22 January 2026' (programmes); the text as it is when it is not a date. */
export function formatLongDate(value: string): string {
  const date = parseIsoDate(value);
  if (!date) return value;
  const p = parts(formatter('long', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }), date);
  return `${p.day} ${p.month} ${p.year}`;
}

/** 'Thursday 22 January 2026' (day-by-day headings); the text as it is when it is not a date. */
export function formatWeekdayDate(value: string): string {
  const date = parseIsoDate(value);
  if (!date) return value;
  const p = parts(
    formatter('weekday', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
    date,
  );
  return `${p.weekday} ${p.day} ${p.month} ${p.year}`;
}

/** '22 January 2026, 08:00' for a day and a time of the programme, or the day alone. */
export function formatLongDateTime(value: string, time?: string | null): string {
  return time ? `${formatLongDate(value)}, ${time}` : formatLongDate(value);
}

/** '16 Nov 2026, 14:03:05' in the reader's time zone (when something happened). */
export function formatTimestamp(ms: number): string {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return '';
  const p = parts(
    formatter('timestamp', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }),
    date,
  );
  return `${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute}:${p.second}`;
}
