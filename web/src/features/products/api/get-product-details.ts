import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { productKeys } from './keys';
import type { ProductDetails } from './types';

/** GET /product/{id}/details */
export function fetchProductDetails(id: string): Promise<ProductDetails> {
  return api.get<ProductDetails>(`/product/${encodeURIComponent(id)}/details`);
}

export const detailsQuery = (id: string) =>
  queryOptions({ queryKey: productKeys.details(id), queryFn: () => fetchProductDetails(id), enabled: id !== '' });

export function useProductDetails(id: string | undefined) {
  return useQuery(detailsQuery(id ?? ''));
}
