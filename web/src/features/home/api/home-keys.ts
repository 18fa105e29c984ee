/**
 * Query keys of the home screen. Every home query lives under `homeKeys.all`,
 * so pull-to-refresh reloads them all with one invalidation.
 */
export const homeKeys = {
  all: ['home'] as const,
  products: () => [...homeKeys.all, 'products'] as const,
  documents: () => [...homeKeys.all, 'documents'] as const,
  news: () => [...homeKeys.all, 'news'] as const,
  congresses: () => [...homeKeys.all, 'congresses'] as const,
};
