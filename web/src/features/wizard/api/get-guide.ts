import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

/** One step of the guided tour (content `guide/tour.json`, served by `GET /guide`). */
export type GuideStep = components['schemas']['GuideStep'];

export const guideQuery = () =>
  queryOptions({
    queryKey: ['guide'] as const,
    queryFn: async () => (await api.get<components['schemas']['GuideResponse']>('/guide')).steps,
    staleTime: 5 * 60_000,
  });

export function useGuide() {
  return useQuery(guideQuery());
}

/** Where the tour starts: the step of the screen asked for, else the first. */
export function startStep(steps: GuideStep[], screen: string | null): number {
  const i = screen ? steps.findIndex((s) => s.screen === screen) : -1;
  return i === -1 ? 0 : i;
}
