import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TabsMap } from '@/components/programme/types';
import { api } from '@/lib/api/client';
import { congressKeys } from './keys';

export interface Congress {
  id: number;
  name: string;
  subtitle: string;
  type: string;
  dates: string;
  date: string;
  preview: string;
  /** Tab key -> {title, content}; the screen orders them. */
  tabs: TabsMap;
  /** The keys of `tabs` in the order of the content (spec 2.18, 2.19). */
  tab_order?: string[] | null;
}

/** `GET /api/congresses/{id}`. */
export function getCongress(id: string): Promise<Congress> {
  return api.get<Congress>(`/congresses/${encodeURIComponent(id)}`);
}

export const congressQuery = (id: string) =>
  queryOptions({ queryKey: congressKeys.detail(id), queryFn: () => getCongress(id) });

export function useCongress(id: string | undefined) {
  return useQuery({ ...congressQuery(id ?? ''), enabled: Boolean(id) });
}
