import type { QueryClient } from '@tanstack/react-query';
import type { DocType } from '../types';

/** Query keys of the documents area; everything lives under `documentsKeys.all`. */
export const documentsKeys = {
  all: ['documents'] as const,
  list: (type: DocType) => [...documentsKeys.all, 'list', type] as const,
  folder: (id: string, type: DocType) => [...documentsKeys.all, 'folder', id, type] as const,
  tree: () => [...documentsKeys.all, 'tree'] as const,
  recipients: (search: string) => [...documentsKeys.all, 'recipients', search] as const,
  history: (id: string) => [...documentsKeys.all, 'history', id] as const,
  asOf: (id: string, at: string) => [...documentsKeys.all, 'as-of', id, at] as const,
  usage: () => [...documentsKeys.all, 'usage'] as const,
};

/**
 * The home screen's documents carousel caches the same lists under its own
 * key (`homeKeys.documents()` of the home feature); a change here refreshes it too.
 */
export const HOME_DOCUMENTS_KEY = ['home', 'documents'] as const;

/** Search results hold documents too (the search feature's `searchKeys.all`). */
export const SEARCH_KEY = ['search'] as const;

/** Reloads every list, folder and tree after a change (spec section 4: the page reloads). */
export async function reloadDocuments(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: documentsKeys.all }),
    queryClient.invalidateQueries({ queryKey: HOME_DOCUMENTS_KEY }),
    queryClient.invalidateQueries({ queryKey: SEARCH_KEY }),
  ]);
}
