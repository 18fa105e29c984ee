/**
 * Tabs of a congress or a training come from the response as a map and are shown in the order
 * of the response (spec 2.18, 2.19): the `tab_order` list the server sends (a JSON object's own
 * order does not survive every server), else the order of the map's keys.
 */

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

function titleOf(key: string, title: unknown): string {
  if (typeof title === 'string' && title.trim()) return title;
  return FALLBACK_TITLES[key] ?? key.charAt(0).toUpperCase() + key.slice(1).replace(/[_-]/g, ' ');
}

type TabsMap = Record<string, { title?: unknown; content?: unknown } | null | undefined>;

/** The tabs of a response, in its order, with their titles; tabs without content are skipped. */
export function orderTabs(tabs: TabsMap | null | undefined, order?: readonly unknown[] | null): OrderedTab[] {
  if (!tabs) return [];
  const listed = (order ?? []).filter((k): k is string => typeof k === 'string' && Object.hasOwn(tabs, k));
  const keys = [...new Set([...listed, ...Object.keys(tabs)])];
  return keys
    .filter((key) => {
      const tab = tabs[key];
      return tab && tab.content !== null && tab.content !== undefined;
    })
    .map((key) => ({ key, title: titleOf(key, tabs[key]?.title) }));
}

/** The tab to show: the one asked for if it exists, else the first. */
export function activeTab(ordered: OrderedTab[], wanted: string | null): string {
  if (wanted && ordered.some((t) => t.key === wanted)) return wanted;
  return ordered[0]?.key ?? '';
}
