import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { productKeys } from './keys';
import type { CategoryPage } from './types';

/** GET /products/category/{id}?order=&subcategory= */
export function fetchCategory(id: string, order: string, subcategory: string): Promise<CategoryPage> {
  return api.get<CategoryPage>(`/products/category/${encodeURIComponent(id)}`, {
    order: order || undefined,
    subcategory: subcategory || undefined,
  });
}

export const categoryQuery = (id: string, order: string, subcategory: string) =>
  queryOptions({
    queryKey: productKeys.category(id, order, subcategory),
    queryFn: () => fetchCategory(id, order, subcategory),
    enabled: id !== '',
    placeholderData: keepPreviousData,
  });

export function useCategory(id: string | undefined, order: string, subcategory: string) {
  return useQuery(categoryQuery(id ?? '', order, subcategory));
}
