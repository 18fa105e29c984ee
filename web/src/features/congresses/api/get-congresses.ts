import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { congressKeys } from './keys';

export type CongressRow = components['schemas']['CongressRow'];
export type CongressList = components['schemas']['CongressList'];

/** `GET /api/congresses?year=`: without a year the server lists the current year. */
export function getCongresses(year: string | null): Promise<CongressList> {
  return api.get<CongressList>('/congresses', { year });
}

export const congressesQuery = (year: string | null) =>
  queryOptions({ queryKey: congressKeys.list(year), queryFn: () => getCongresses(year) });

export function useCongresses(year: string | null) {
  return useQuery(congressesQuery(year));
}
