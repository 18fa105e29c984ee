import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { homeKeys } from './home-keys';

type Schemas = components['schemas'];

export type HomeSegment = Schemas['SegmentTile'];

/** GET /products/categories: the product segments of the home carousel. */
export async function fetchHomeProducts(): Promise<HomeSegment[]> {
  const body = await api.get<Schemas['SegmentList']>('/products/categories');
  return body.categories;
}

export const homeProductsQuery = () => queryOptions({ queryKey: homeKeys.products(), queryFn: fetchHomeProducts });

export function useHomeProducts() {
  return useQuery(homeProductsQuery());
}
