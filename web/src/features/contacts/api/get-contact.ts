import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { Subsidiary } from './types';

/** GET /contacts/{id}: one entry (subsidiary). */
export function fetchContact(id: number): Promise<Subsidiary> {
  return api.get<Subsidiary>(`/contacts/${id}`);
}

export const contactQuery = (id: number | null) =>
  queryOptions({
    queryKey: ['contacts', 'entry', id] as const,
    queryFn: () => fetchContact(id ?? 0),
    enabled: id !== null,
  });

export function useContact(id: number | null) {
  return useQuery(contactQuery(id));
}
