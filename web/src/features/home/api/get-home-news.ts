import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { homeKeys } from './home-keys';

export interface HomeNews {
  id: number;
  title: string;
  date: string;
  preview: string;
  category: string;
}

/** GET /news/home: the latest news of the home carousel. */
export async function fetchHomeNews(): Promise<HomeNews[]> {
  const body = await api.get<{ list: HomeNews[] }>('/news/home');
  return body.list;
}

export const homeNewsQuery = () => queryOptions({ queryKey: homeKeys.news(), queryFn: fetchHomeNews });

export function useHomeNews() {
  return useQuery(homeNewsQuery());
}
