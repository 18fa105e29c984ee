import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ActivityEvent } from '@/components/programme/types';
import { api } from '@/lib/api/client';
import { congressKeys } from './keys';

/** `GET /api/congresses/activities/{id}`. */
export function getActivity(id: string): Promise<ActivityEvent> {
  return api.get<ActivityEvent>(`/congresses/activities/${encodeURIComponent(id)}`);
}

export const activityQuery = (id: string) =>
  queryOptions({ queryKey: congressKeys.activity(id), queryFn: () => getActivity(id) });

export function useActivity(id: string | undefined) {
  return useQuery({ ...activityQuery(id ?? ''), enabled: Boolean(id) });
}
