import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { DocList, DocType } from '../types';
import { documentsKeys } from './keys';

export const LIST_PATHS: Record<DocType, string> = {
  my: '/documents/my',
  shared: '/documents/shared',
  us: '/usadocs',
};

/** The root list of a tab: My Docs, Shared with me or US. */
export function getDocuments(type: DocType, signal?: AbortSignal): Promise<DocList> {
  return api.get<DocList>(LIST_PATHS[type], undefined, { signal });
}

export const documentsQuery = (type: DocType) =>
  queryOptions({
    queryKey: documentsKeys.list(type),
    queryFn: ({ signal }) => getDocuments(type, signal),
  });

export function useDocuments(type: DocType) {
  return useQuery(documentsQuery(type));
}
