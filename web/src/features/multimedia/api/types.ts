import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type FilterOption = Schemas['FilterOption'];
export type MultimediaFilters = Schemas['MultimediaFilters'];
export type MultimediaVideo = Schemas['MultimediaVideo'];
export type MultimediaImage = Schemas['MultimediaImage'];

/** The filters the screen sends (a query, not a response). */
export interface MultimediaQuery {
  segment: string;
  category: string;
  year: string;
}
