import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { homeKeys } from './home-keys';

export interface HomeSegment {
  id: number;
  type: 'segment';
  name: string;
  preview: string;
  red_label: string | null;
}

/** GET /products/categories: the product segments of the home carousel. */
export async function fetchHomeProducts(): Promise<HomeSegment[]> {
  const body = await api.get<{ categories: HomeSegment[] }>('/products/categories');
  return body.categories;
}

export const homeProductsQuery = () => queryOptions({ queryKey: homeKeys.products(), queryFn: fetchHomeProducts });

export function useHomeProducts() {
  return useQuery(homeProductsQuery());
}
