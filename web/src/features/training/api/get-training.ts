import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { trainingKeys } from './keys';

export type Training = components['schemas']['TrainingDetail'];

/** `GET /api/training/{id}`. */
export function getTraining(id: string): Promise<Training> {
  return api.get<Training>(`/training/${encodeURIComponent(id)}`);
}

export const trainingQuery = (id: string) =>
  queryOptions({ queryKey: trainingKeys.detail(id), queryFn: () => getTraining(id) });

export function useTraining(id: string | undefined) {
  return useQuery({ ...trainingQuery(id ?? ''), enabled: Boolean(id) });
}
