import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { congressKeys } from './keys';

export type Congress = components['schemas']['CongressDetail'];

/** `GET /api/congresses/{id}`. */
export function getCongress(id: string): Promise<Congress> {
  return api.get<Congress>(`/congresses/${encodeURIComponent(id)}`);
}

export const congressQuery = (id: string) =>
  queryOptions({ queryKey: congressKeys.detail(id), queryFn: () => getCongress(id) });

export function useCongress(id: string | undefined) {
  return useQuery({ ...congressQuery(id ?? ''), enabled: Boolean(id) });
}
