import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';

/** One step of the guided tour (content `guide/tour.json`, served by `GET /guide`). */
export interface GuideStep {
  /** The screen's key, as its info button names it. */
  screen: string;
  title: string;
  text: string;
  /** In-app path of the screen. */
  path: string;
  image?: string | null;
}

export const guideQuery = () =>
  queryOptions({
    queryKey: ['guide'] as const,
    queryFn: async () => (await api.get<{ steps: GuideStep[] }>('/guide')).steps,
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
