import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { trainingKeys } from './keys';

export type TrainingRow = components['schemas']['TrainingRow'];
export type TrainingList = components['schemas']['TrainingList'];

/** `GET /api/training?year=`: without a year the server lists the current year. */
export function getTrainings(year: string | null): Promise<TrainingList> {
  return api.get<TrainingList>('/training', { year });
}

export const trainingsQuery = (year: string | null) =>
  queryOptions({ queryKey: trainingKeys.list(year), queryFn: () => getTrainings(year) });

export function useTrainings(year: string | null) {
  return useQuery(trainingsQuery(year));
}
