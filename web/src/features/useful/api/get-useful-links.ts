import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

export type UsefulLink = components['schemas']['UsefulLink'];

/** GET /useful-links-new */
export function fetchUsefulLinks(): Promise<UsefulLink[]> {
  return api.get<UsefulLink[]>('/useful-links-new');
}

export const usefulLinksQuery = () => queryOptions({ queryKey: ['useful-links'] as const, queryFn: fetchUsefulLinks });

export function useUsefulLinks() {
  return useQuery(usefulLinksQuery());
}
