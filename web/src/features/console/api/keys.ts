import type { StatusFilter } from '../types';

/**
 * Every query of the console sits under this prefix, so live messages (`content_changed`,
 * `library_withdrawn`) can refresh them all at once.
 */
export const CONSOLE_QUERY_PREFIX = ['console'] as const;

/** The list's query for a status filter and a text: empty parts are left out. */
export function listQuery(status: StatusFilter, q: string): { status?: string; q?: string } {
  const text = q.trim();
  return { status: status || undefined, q: text || undefined };
}

export const consoleKeys = {
  all: CONSOLE_QUERY_PREFIX,
  library: () => [...CONSOLE_QUERY_PREFIX, 'library'] as const,
  libraryList: (query: { status?: string; q?: string }) => [...consoleKeys.library(), 'list', query] as const,
  libraryItem: (id: number) => [...consoleKeys.library(), 'item', id] as const,
  libraryHistory: (id: number) => [...consoleKeys.library(), 'history', id] as const,
  withdrawalReport: (id: number) => [...consoleKeys.library(), 'report', id] as const,
  news: () => [...CONSOLE_QUERY_PREFIX, 'news'] as const,
  newsList: (query: { status?: string; q?: string }) => [...consoleKeys.news(), 'list', query] as const,
  newsItem: (id: number) => [...consoleKeys.news(), 'item', id] as const,
  newsHistory: (id: number) => [...consoleKeys.news(), 'history', id] as const,
};

/**
 * The console queries a live message makes stale: `library_withdrawn` and `content_changed` of
 * kind `library` the library's, `content_changed` of kind `news` the news'; other messages none.
 */
export function consoleKeysForMessage(type: string, payload: unknown): (readonly string[])[] {
  if (type === 'library_withdrawn') return [consoleKeys.library()];
  if (type !== 'content_changed') return [];
  const kind = typeof payload === 'object' && payload !== null ? (payload as { kind?: unknown }).kind : undefined;
  if (kind === 'library') return [consoleKeys.library()];
  if (kind === 'news') return [consoleKeys.news()];
  return [];
}
