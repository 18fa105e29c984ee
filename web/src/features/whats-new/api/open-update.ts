import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { AppUpdate } from '../types';
import { whatsNewKeys } from './keys';

/** `GET /updates/{id}`: one app update; the server records that the user viewed it. */
export function openUpdate(id: number): Promise<AppUpdate> {
  return api.get<AppUpdate>(`/updates/${id}`);
}

export const updateQuery = (id: number) =>
  queryOptions({ queryKey: whatsNewKeys.update(id), queryFn: () => openUpdate(id), staleTime: Infinity, retry: false });

export function useUpdate(id: number | null) {
  return useQuery({ ...updateQuery(id ?? 0), enabled: id !== null });
}
