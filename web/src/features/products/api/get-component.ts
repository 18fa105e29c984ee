import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { productKeys } from './keys';
import type { ComponentDetails } from './types';

/** GET /component/{id} */
export function fetchComponent(id: string): Promise<ComponentDetails> {
  return api.get<ComponentDetails>(`/component/${encodeURIComponent(id)}`);
}

export const componentQuery = (id: string) =>
  queryOptions({ queryKey: productKeys.component(id), queryFn: () => fetchComponent(id), enabled: id !== '' });

export function useComponent(id: string | undefined) {
  return useQuery(componentQuery(id ?? ''));
}
