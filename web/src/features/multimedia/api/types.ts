import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export interface FilterOption {
  value: string | number;
  label: string;
}

/** The server documents a filter value as any JSON; the app reads texts and numbers. */
export interface MultimediaFilters {
  segment: FilterOption[];
  category: FilterOption[];
  year: FilterOption[];
}
export type MultimediaVideo = Schemas['MultimediaVideo'];
export type MultimediaImage = Schemas['MultimediaImage'];

/** The filters the screen sends (a query, not a response). */
export interface MultimediaQuery {
  segment: string;
  category: string;
  year: string;
}
