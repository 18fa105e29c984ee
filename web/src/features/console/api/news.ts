import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { HistoryEntry, LifecycleAnswer, NewsAdminItem, NewsDetail, NewsDraft } from '../types';
import { consoleKeys } from './keys';

const base = (id: number) => `/admin/news/${encodeURIComponent(String(id))}`;

export function listNews(query: { status?: string; q?: string }, signal?: AbortSignal) {
  return api.get<{ items: NewsAdminItem[] }>('/admin/news', query, { signal });
}

export function useNewsList(query: { status?: string; q?: string }, enabled = true) {
  return useQuery({
    queryKey: consoleKeys.newsList(query),
    queryFn: async ({ signal }): Promise<NewsAdminItem[]> => (await listNews(query, signal)).items,
    staleTime: 0,
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function getNewsItem(id: number, signal?: AbortSignal) {
  return api.get<NewsDetail>(base(id), undefined, { signal });
}

export function useNewsItem(id: number | null) {
  return useQuery({
    queryKey: consoleKeys.newsItem(id ?? 0),
    queryFn: ({ signal }) => getNewsItem(id ?? 0, signal),
    enabled: id !== null,
    retry: false,
  });
}

export function getNewsHistory(id: number, signal?: AbortSignal) {
  return api.get<HistoryEntry[]>(`${base(id)}/history`, undefined, { signal });
}

export function useNewsHistory(id: number | null) {
  return useQuery({
    queryKey: consoleKeys.newsHistory(id ?? 0),
    queryFn: ({ signal }) => getNewsHistory(id ?? 0, signal),
    enabled: id !== null,
    retry: false,
  });
}

export function createNews(draft: NewsDraft) {
  return api.post<LifecycleAnswer>('/admin/news', draft);
}

/** Records a new draft version of the news item. */
export function updateNews(id: number, draft: NewsDraft) {
  return api.request<LifecycleAnswer>(base(id), { method: 'PATCH', body: draft });
}

export function submitNews(id: number) {
  return api.post<LifecycleAnswer>(`${base(id)}/submit`, {});
}

export function decideNews(id: number, kind: 'approve' | 'reject', comment: string) {
  return api.post<LifecycleAnswer>(`${base(id)}/${kind}`, { comment: comment.trim() });
}

export function withdrawNews(id: number, reason: string) {
  return api.post<LifecycleAnswer>(`${base(id)}/withdraw`, { reason: reason.trim() });
}
