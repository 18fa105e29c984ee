import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

export type OwnSession = components['schemas']['OwnSession'];

export const sessionsKey = ['menu', 'sessions'] as const;

/** The signed-in user's open sessions, the most recently used first. */
export function getOwnSessions(signal?: AbortSignal): Promise<OwnSession[]> {
  return api.get<OwnSession[]>('/users/sessions', undefined, { signal });
}

/** Ends one of the user's sessions: that device is signed out at once. */
export function endSession(id: string): Promise<unknown> {
  return api.request(`/users/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useOwnSessions() {
  return useQuery({ queryKey: sessionsKey, queryFn: ({ signal }) => getOwnSessions(signal), staleTime: 0 });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}
