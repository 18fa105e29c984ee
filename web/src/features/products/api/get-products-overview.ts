import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { productKeys } from './keys';
import type { ProductsOverview } from './types';

/** GET /products: segment tiles and catalogue documents. */
export function fetchProductsOverview(): Promise<ProductsOverview> {
  return api.get<ProductsOverview>('/products');
}

export const productsOverviewQuery = () =>
  queryOptions({ queryKey: productKeys.overview(), queryFn: fetchProductsOverview });

export function useProductsOverview() {
  return useQuery(productsOverviewQuery());
}
