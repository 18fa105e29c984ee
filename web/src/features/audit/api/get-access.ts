import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { AccessAsOf } from '../types';
import { auditKeys } from './keys';

/** Who could see an item at a time (RFC 3339): its owner, the US set, the shares then. */
export function getAccess(id: string, at: string, signal?: AbortSignal): Promise<AccessAsOf> {
  return api.get<AccessAsOf>(`/items/${encodeURIComponent(id)}/access-as-of`, { at }, { signal });
}

export const accessQuery = (id: string, at: string | null) =>
  queryOptions({
    queryKey: auditKeys.access(id, at ?? ''),
    queryFn: ({ signal }) => getAccess(id, at ?? '', signal),
    enabled: at !== null,
    retry: false,
  });

export function useAccess(id: string, at: string | null) {
  return useQuery(accessQuery(id, at));
}
