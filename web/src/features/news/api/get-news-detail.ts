import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { NewsDetail } from './types';

/** GET /news/{id} */
export function fetchNewsDetail(id: string): Promise<NewsDetail> {
  return api.get<NewsDetail>(`/news/${encodeURIComponent(id)}`);
}

export const newsDetailQuery = (id: string) =>
  queryOptions({ queryKey: ['news', 'detail', id] as const, queryFn: () => fetchNewsDetail(id), enabled: id !== '' });

export function useNewsDetail(id: string | null) {
  return useQuery(newsDetailQuery(id ?? ''));
}
