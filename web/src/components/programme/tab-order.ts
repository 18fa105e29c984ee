/**
 * Tabs of a congress or a training come from the response as a map; they are shown in the
 * order of the spec (info, details, hotel, day, activities, key messages, media, downloads,
 * contacts), any other tab after these in alphabetical order.
 */
export const TAB_ORDER = [
  'info',
  'details',
  'hotel',
  'day',
  'activities',
  'messages',
  'key',
  'media',
  'downloads',
  'download',
  'contacts',
] as const;

/** Titles used when the response gives none. */
const FALLBACK_TITLES: Record<string, string> = {
  info: 'Info',
  details: 'Details',
  hotel: 'Hotel & Transfer',
  day: 'Day by day',
  activities: 'Activities',
  messages: 'Key messages',
  key: 'Key messages',
  media: 'Media',
  downloads: 'Downloads',
  download: 'Downloads',
  contacts: 'Contacts',
};

export interface OrderedTab {
  key: string;
  title: string;
}

function rank(key: string): number {
  const index = (TAB_ORDER as readonly string[]).indexOf(key);
  return index === -1 ? TAB_ORDER.length : index;
}

function titleOf(key: string, title: unknown): string {
  if (typeof title === 'string' && title.trim()) return title;
  return FALLBACK_TITLES[key] ?? key.charAt(0).toUpperCase() + key.slice(1).replace(/[_-]/g, ' ');
}

/** The tabs of a response, in display order, with their titles. */
export function orderTabs(tabs: Record<string, { title?: unknown; content?: unknown } | null | undefined> | null | undefined): OrderedTab[] {
  if (!tabs) return [];
  return Object.entries(tabs)
    .filter(([, tab]) => tab && tab.content !== null && tab.content !== undefined)
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([key, tab]) => ({ key, title: titleOf(key, tab?.title) }));
}

/** The tab to show: the one asked for if it exists, else the first. */
export function activeTab(ordered: OrderedTab[], wanted: string | null): string {
  if (wanted && ordered.some((t) => t.key === wanted)) return wanted;
  return ordered[0]?.key ?? '';
}
