import type { DocType } from '../types';

export const TAB_LABELS: Record<DocType, string> = {
  my: 'My Docs',
  shared: 'Shared with me',
  us: 'US',
};

export function isDocType(value: unknown): value is DocType {
  return value === 'my' || value === 'shared' || value === 'us';
}

/** The tabs a user sees: 'US' only with the US flag, and then first. */
export function availableTabs(showUs: boolean): DocType[] {
  return showUs ? ['us', 'my', 'shared'] : ['my', 'shared'];
}

/** With the US flag the US tab is the initial tab. */
export function initialTab(showUs: boolean): DocType {
  return showUs ? 'us' : 'my';
}

/** The tab to show for a `?tab=` value: it must be one the user has, else the initial tab. */
export function resolveTab(requested: string | null | undefined, showUs: boolean): DocType {
  return isDocType(requested) && availableTabs(showUs).includes(requested) ? requested : initialTab(showUs);
}

/** Adding folders and files happens only in My Docs; shared and US are read-only. */
export function canAdd(type: DocType): boolean {
  return type === 'my';
}
