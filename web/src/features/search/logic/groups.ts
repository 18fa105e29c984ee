import type { SearchItem, SearchResults } from '../types';

/** The result types, in the order the screen lists them, with their chip labels. */
export const SEARCH_TYPES = [
  { type: 'products', label: 'Products' },
  { type: 'components', label: 'Components' },
  { type: 'news', label: 'News' },
  { type: 'congresses', label: 'Congresses' },
  { type: 'activities', label: 'Activities' },
  { type: 'training', label: 'Training' },
  { type: 'learn', label: 'Medical Education' },
  { type: 'contacts', label: 'Contacts' },
  { type: 'links', label: 'Useful Links' },
  { type: 'documents', label: 'Documents' },
] as const;

export type KnownSearchType = (typeof SEARCH_TYPES)[number]['type'];

export const ALL_SECTION = 'all';

export interface ResultGroup {
  type: string;
  label: string;
  items: SearchItem[];
}

export interface SectionChip {
  value: string;
  label: string;
}

/** A type the server may add later gets a readable label from its key ("case_studies" -> "Case studies"). */
export function typeLabel(type: string): string {
  const known = SEARCH_TYPES.find((t) => t.type === type);
  if (known) return known.label;
  const words = type.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : type;
}

function isItem(value: unknown): value is SearchItem {
  if (!value || typeof value !== 'object') return false;
  const item = value as Record<string, unknown>;
  return typeof item.id === 'string' && typeof item.name === 'string';
}

/**
 * The non-empty groups of an answer: known types in the screen's order, then
 * any other type in the order the server sent it. Malformed entries are dropped.
 */
export function groupResults(results: SearchResults | null | undefined): ResultGroup[] {
  if (!results || typeof results !== 'object') return [];
  const knownOrder: string[] = SEARCH_TYPES.map((t) => t.type);
  const byType = new Map<string, unknown>(Object.entries(results));
  const keys = [
    ...knownOrder.filter((type) => byType.has(type)),
    ...[...byType.keys()].filter((type) => !knownOrder.includes(type)),
  ];
  const groups: ResultGroup[] = [];
  for (const type of keys) {
    const raw = byType.get(type);
    const items = Array.isArray(raw) ? raw.filter(isItem) : [];
    if (items.length > 0) groups.push({ type, label: typeLabel(type), items });
  }
  return groups;
}

/** The chips: 'All', then one per non-empty group. */
export function sectionChips(groups: ResultGroup[]): SectionChip[] {
  return [{ value: ALL_SECTION, label: 'All' }, ...groups.map((g) => ({ value: g.type, label: g.label }))];
}

/** The selected chip: the asked one when it has results, otherwise 'All'. */
export function selectedSection(groups: ResultGroup[], asked: string | null | undefined): string {
  return asked && groups.some((g) => g.type === asked) ? asked : ALL_SECTION;
}

/** The groups shown under a chip. */
export function visibleGroups(groups: ResultGroup[], section: string): ResultGroup[] {
  if (section === ALL_SECTION) return groups;
  const only = groups.filter((g) => g.type === section);
  return only.length > 0 ? only : groups;
}

export function resultCount(groups: ResultGroup[]): number {
  return groups.reduce((sum, g) => sum + g.items.length, 0);
}
