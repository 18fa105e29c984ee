import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type NewsItem = Schemas['NewsItem'];
export type NewsDetail = Schemas['NewsDetail'];

/**
 * The server documents a filter value as any JSON (catalogue filters hold texts or numbers);
 * news filters are texts, which this narrows.
 */
export type NewsList = Omit<Schemas['NewsList'], 'filters'> & {
  filters: { year: { value: string; label: string }[]; category: { value: string; label: string }[] };
};
