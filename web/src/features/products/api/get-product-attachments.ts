import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { productKeys } from './keys';
import type { ProductAttachments } from './types';

/** GET /product/{id}/attachments */
export function fetchProductAttachments(id: string): Promise<ProductAttachments> {
  return api.get<ProductAttachments>(`/product/${encodeURIComponent(id)}/attachments`);
}

export const attachmentsQuery = (id: string) =>
  queryOptions({
    queryKey: productKeys.attachments(id),
    queryFn: () => fetchProductAttachments(id),
    enabled: id !== '',
  });

export function useProductAttachments(id: string | undefined) {
  return useQuery(attachmentsQuery(id ?? ''));
}
