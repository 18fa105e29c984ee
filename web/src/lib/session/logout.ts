import { queryClient } from '../query-client';
import { tokenStore } from '../storage';
import { useBadges } from '../stores/badges';
import { useSession } from './store';

/**
 * Ends the session on this device: user data, token, cached server data and
 * live counters. Navigation to /login is up to the caller.
 */
export function logout(): void {
  tokenStore.clear();
  useSession.getState().clear();
  useBadges.getState().reset();
  queryClient.clear();
}

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';
