import { clearDevice } from '../offline';
import { forgetPushOnThisDevice } from '../push';
import { queryClient } from '../query-client';
import { sessionApi } from './api';
import { tokenStore } from '../storage';
import { useBadges } from '../stores/badges';
import { useSession } from './store';

/**
 * Ends the session on this device: user data, token, cached server data and
 * live counters, and everything kept for offline use (cached answers, files,
 * queued actions). Navigation to /login is up to the caller; the returned
 * promise settles once the device copies are gone.
 */
export function logout(): Promise<void> {
  tokenStore.clear();
  useSession.getState().clear();
  useBadges.getState().reset();
  queryClient.clear();
  return clearDevice().catch((error: unknown) => console.warn('Clearing offline data failed', error));
}

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';

/**
 * Signs out: ends the session on the server (its token stops working at once
 * and its live connection closes), then on this device. The device is signed
 * out even when the server cannot be reached.
 */
export async function signOut(): Promise<void> {
  if (tokenStore.get()) {
    try {
      await sessionApi.logout();
    } catch {
      /* offline or already ended: the local sign-out below still happens */
    }
  }
  await forgetPushOnThisDevice();
  await logout();
}
