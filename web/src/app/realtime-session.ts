import type { Router } from './router';
import { startRealtime, stopRealtime } from '@/lib/realtime';
import { useSession, type SessionState } from '@/lib/session/store';
import { expireSession } from './session-expiry';

/**
 * Keeps the realtime socket in step with the session: open while a user is
 * signed in and the current terms are accepted, closed (and its resume point
 * forgotten) on logout. A 4401 close is the same session-expired logout as a
 * 401 from the API.
 */
export function bindRealtimeToSession(router: Router): () => void {
  const sync = (state: SessionState) => {
    const id = state.user?.id;
    if (id === undefined || id === null) {
      stopRealtime({ forget: true });
      return;
    }
    // The server sends nothing before the current terms are accepted (it closes with 4403).
    if (state.needAcceptTerms === true) {
      stopRealtime();
      return;
    }
    startRealtime({ userKey: String(id), onUnauthorized: () => expireSession(router) });
  };
  sync(useSession.getState());
  const unsubscribe = useSession.subscribe(sync);
  return () => {
    unsubscribe();
    stopRealtime();
  };
}
