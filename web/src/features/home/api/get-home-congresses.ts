import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { homeKeys } from './home-keys';

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

export const homeCongressesQuery = () => queryOptions({ queryKey: homeKeys.congresses(), queryFn: getHomeCongresses });

export function useHomeCongresses() {
  return useQuery(homeCongressesQuery());
}
