import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { productKeys } from './keys';
import type { SegmentPage } from './types';

/** GET /products/segment/{id} */
export function fetchSegment(id: string): Promise<SegmentPage> {
  return api.get<SegmentPage>(`/products/segment/${encodeURIComponent(id)}`);
}

export const segmentQuery = (id: string) =>
  queryOptions({ queryKey: productKeys.segment(id), queryFn: () => fetchSegment(id), enabled: id !== '' });

export function useSegment(id: string | undefined) {
  return useQuery(segmentQuery(id ?? ''));
}
