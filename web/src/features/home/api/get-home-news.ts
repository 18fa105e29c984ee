import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { homeKeys } from './home-keys';

type Schemas = components['schemas'];

export type HomeNews = Schemas['NewsItem'];

/** GET /news/home: the latest news of the home carousel. */
export async function fetchHomeNews(): Promise<HomeNews[]> {
  const body = await api.get<Schemas['NewsHome']>('/news/home');
  return body.list;
}

export const homeNewsQuery = () => queryOptions({ queryKey: homeKeys.news(), queryFn: fetchHomeNews });

export function useHomeNews() {
  return useQuery(homeNewsQuery());
}
