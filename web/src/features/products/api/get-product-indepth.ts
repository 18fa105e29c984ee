import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { productKeys } from './keys';
import type { InDepthPage } from './types';

/** GET /product/{id}/indepth */
export function fetchProductInDepth(id: string): Promise<InDepthPage> {
  return api.get<InDepthPage>(`/product/${encodeURIComponent(id)}/indepth`);
}

export const indepthQuery = (id: string) =>
  queryOptions({ queryKey: productKeys.indepth(id), queryFn: () => fetchProductInDepth(id), enabled: id !== '' });

export function useProductInDepth(id: string | undefined) {
  return useQuery(indepthQuery(id ?? ''));
}
