import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { homeKeys } from './home-keys';

type Schemas = components['schemas'];

export type HomeCongress = Schemas['CongressRow'];

/** `GET /api/congresses/home`: congresses and events not over yet, soonest first. */
export function getHomeCongresses(): Promise<Schemas['CongressHome']> {
  return api.get<Schemas['CongressHome']>('/congresses/home');
}

export const homeCongressesQuery = () => queryOptions({ queryKey: homeKeys.congresses(), queryFn: getHomeCongresses });

export function useHomeCongresses() {
  return useQuery(homeCongressesQuery());
}
