import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { productKeys } from './keys';
import type { ProductComponents } from './types';

/** GET /product/{id}/components */
export function fetchProductComponents(id: string): Promise<ProductComponents> {
  return api.get<ProductComponents>(`/product/${encodeURIComponent(id)}/components`);
}

export const componentsQuery = (id: string) =>
  queryOptions({ queryKey: productKeys.components(id), queryFn: () => fetchProductComponents(id), enabled: id !== '' });

export function useProductComponents(id: string | undefined) {
  return useQuery(componentsQuery(id ?? ''));
}
