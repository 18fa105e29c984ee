import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '@/lib/api/errors';
import { sessionApi } from '@/lib/session/api';
import { peekDestination, takeDestination } from '@/lib/session/next';
import { useSession } from '@/lib/session/store';

/** A session confirmed this recently (e.g. by the login itself) is not restored again on load. */
const FRESH_MS = 15_000;

/**
 * Home logs in again with the stored token when it loads (and on pull-to-refresh),
 * then follows a pending destination (terms, onboarding, update, stored link).
 */
export function useSessionRefresh(): () => Promise<void> {
  const navigate = useNavigate();
  const started = useRef(false);

  const refresh = useCallback(async () => {
    try {
      const response = await sessionApi.welcome();
      useSession.getState().applySession(response);
    } catch (error) {
      // A 401 is handled by the shell (logout); anything else keeps the current session.
      if (!isApiError(error) || error.status !== 401) console.warn('Session refresh failed', error);
      return;
    }
    if (peekDestination().reason !== 'home') void navigate(takeDestination(), { replace: true });
  }, [navigate]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const { syncedAt } = useSession.getState();
    if (Date.now() - syncedAt < FRESH_MS) {
      if (peekDestination().reason !== 'home') void navigate(takeDestination(), { replace: true });
      return;
    }
    void refresh();
  }, [refresh, navigate]);

  return refresh;
}
