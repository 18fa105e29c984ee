import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { FilterOptions } from '@/lib/filters';
import { trainingKeys } from './keys';

export interface TrainingRow {
  id: number;
  name: string;
  subtitle: string;
  dates: string;
  start_date: string;
  end_date: string;
  preview: string;
}

export interface TrainingList {
  list: TrainingRow[];
  filters: FilterOptions;
  selected: { year: string };
}

/** `GET /api/training?year=`: without a year the server lists the current year. */
export function getTrainings(year: string | null): Promise<TrainingList> {
  return api.get<TrainingList>('/training', { year });
}

export const trainingsQuery = (year: string | null) =>
  queryOptions({ queryKey: trainingKeys.list(year), queryFn: () => getTrainings(year) });

export function useTrainings(year: string | null) {
  return useQuery(trainingsQuery(year));
}
