import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';

export interface HomeCongress {
  id: number;
  name: string;
  subtitle: string;
  type: string;
  dates: string;
  preview: string;
}

/** `GET /api/congresses/home`: congresses and events not over yet, soonest first. */
export function getHomeCongresses(): Promise<{ list: HomeCongress[] }> {
  return api.get<{ list: HomeCongress[] }>('/congresses/home');
}

/** Under `homeKeys.all`, so the home pull-to-refresh reloads it (same as `homeKeys.congresses()`). */
export const HOME_CONGRESSES_KEY = ['home', 'congresses'] as const;

export const homeCongressesQuery = () => queryOptions({ queryKey: HOME_CONGRESSES_KEY, queryFn: getHomeCongresses });

export function useHomeCongresses() {
  return useQuery(homeCongressesQuery());
}
