import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TabsMap } from '@/components/programme/types';
import { api } from '@/lib/api/client';
import { trainingKeys } from './keys';

export interface Training {
  id: number;
  /** The training's name. */
  title?: string;
  name: string;
  subtitle: string;
  dates: string;
  text_over_website?: string;
  website?: string;
  link?: string;
  tabs: TabsMap;
  /** The keys of `tabs` in the order of the content (spec 2.18, 2.19). */
  tab_order?: string[] | null;
}

/** `GET /api/training/{id}`. */
export function getTraining(id: string): Promise<Training> {
  return api.get<Training>(`/training/${encodeURIComponent(id)}`);
}

export const trainingQuery = (id: string) =>
  queryOptions({ queryKey: trainingKeys.detail(id), queryFn: () => getTraining(id) });

export function useTraining(id: string | undefined) {
  return useQuery({ ...trainingQuery(id ?? ''), enabled: Boolean(id) });
}
