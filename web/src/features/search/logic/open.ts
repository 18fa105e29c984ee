import type { SearchDocument, SearchItem } from '../types';

/** What opening a result does (spec 2.6). */
export type OpenTarget = { kind: 'route'; path: string } | { kind: 'document'; document: SearchDocument };

/** Types that have a screen of their own, and its address. */
const ROUTES: Record<string, (id: string) => string> = {
  products: (id) => `/products/detail/${id}`,
  training: (id) => `/training/${id}`,
  learn: (id) => `/learn/${id}`,
  congresses: (id) => `/congresses/${id}`,
  news: (id) => `/news/${id}`,
};

/** Where everything else goes. */
export const FALLBACK_PATH = '/home';

/**
 * Products, training, courses, congresses and news open their screen; a
 * document opens its action menu; anything else goes to /home.
 */
export function openTarget(type: string, item: Pick<SearchItem, 'id' | 'document'>): OpenTarget {
  if (type === 'documents') {
    return item.document ? { kind: 'document', document: item.document } : { kind: 'route', path: FALLBACK_PATH };
  }
  const route = Object.hasOwn(ROUTES, type) ? ROUTES[type] : undefined;
  if (!route || !item.id) return { kind: 'route', path: FALLBACK_PATH };
  return { kind: 'route', path: route(encodeURIComponent(item.id)) };
}
