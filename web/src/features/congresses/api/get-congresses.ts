import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { FilterOptions } from '@/lib/filters';
import { congressKeys } from './keys';

export interface CongressRow {
  id: number;
  name: string;
  subtitle: string;
  /** 'event' or otherwise a congress. */
  type: string;
  dates: string;
  date: string;
  end_date: string;
  preview: string;
}

export interface CongressList {
  list: CongressRow[];
  filters: FilterOptions;
  selected: { year: string; type: string | null };
}

/** `GET /api/congresses?year=`: without a year the server lists the current year. */
export function getCongresses(year: string | null): Promise<CongressList> {
  return api.get<CongressList>('/congresses', { year });
}

export const congressesQuery = (year: string | null) =>
  queryOptions({ queryKey: congressKeys.list(year), queryFn: () => getCongresses(year) });

export function useCongresses(year: string | null) {
  return useQuery(congressesQuery(year));
}
