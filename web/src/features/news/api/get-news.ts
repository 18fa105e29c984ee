import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { NewsList } from './types';

/** GET /news?year=&category= */
export function fetchNews(year: string, category: string): Promise<NewsList> {
  return api.get<NewsList>('/news', { year: year || undefined, category: category || undefined });
}

export const newsQuery = (year: string, category: string) =>
  queryOptions({
    queryKey: ['news', 'list', year, category] as const,
    queryFn: () => fetchNews(year, category),
    placeholderData: keepPreviousData,
  });

export function useNews(year: string, category: string) {
  return useQuery(newsQuery(year, category));
}
