import { api } from '@/lib/api/client';

/** Records the user's acceptance of the terms and conditions. */
export function acceptTerms(): Promise<{ result: boolean }> {
  return api.get<{ result: boolean }>('/users/accept-terms');
}
