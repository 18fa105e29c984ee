import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { ContactSection } from './types';

/** GET /contacts: the sections (tab and voices). */
export function fetchContacts(): Promise<ContactSection[]> {
  return api.get<ContactSection[]>('/contacts');
}

export const contactsQuery = () =>
  queryOptions({ queryKey: ['contacts', 'sections'] as const, queryFn: fetchContacts });

export function useContacts() {
  return useQuery(contactsQuery());
}
