import type { Router } from './router';
import { api } from '@/lib/api/client';
import { sessionApi } from '@/lib/session/api';
import { logout, SESSION_EXPIRED_MESSAGE } from '@/lib/session/logout';
import { useSession } from '@/lib/session/store';
import { tokenStore } from '@/lib/storage';
import { toast } from '@/lib/stores/toast';

/** Logs out, tells the user once, and returns to the login screen. */
export function expireSession(router: Router): void {
  const hadSession = useSession.getState().user !== null || tokenStore.get() !== null;
  void logout();
  if (!hadSession) return;
  // For the login screen: it stays however long that screen takes to open.
  toast.dangerOn('/login', SESSION_EXPIRED_MESSAGE);
  void router.navigate('/login', { replace: true });
}

/**
 * A 401 from any call (the transport only reports it): log out, tell the user
 * once, and return to the login screen.
 */
export function handleSessionExpiry(router: Router): () => void {
  return api.onUnauthorized(() => expireSession(router));
}

/**
 * A 403 with the terms code (the current terms are not accepted yet, or they
 * changed): back to the terms screen, as after sign-in. The session is asked
 * first, so a late answer to a call made before an acceptance does not send
 * the user back.
 */
export function handleTermsRequired(router: Router): () => void {
  let checking = false;
  return api.onTermsRequired(() => {
    if (checking) return;
    checking = true;
    void sessionApi
      .welcome()
      .then((session) => {
        useSession.getState().applySession(session);
        if (session.need_accept_terms !== false && router.state.location.pathname !== '/terms') {
          void router.navigate('/terms', { replace: true });
        }
      })
      .catch(() => undefined)
      .finally(() => {
        checking = false;
      });
  });
}
