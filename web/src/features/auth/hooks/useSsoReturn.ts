import { useEffect, useRef, useState } from 'react';
import type { SetURLSearchParams } from 'react-router';
import { refreshBadges } from '@/lib/api/badges';
import { sessionApi } from '@/lib/session/api';
import { registerDevice } from '@/lib/session/device';
import { logout } from '@/lib/session/logout';
import { useSession } from '@/lib/session/store';
import { toast } from '@/lib/stores/toast';
import { ssoExchangeFailure, ssoReturnedError } from '../login-messages';

/**
 * The return from single sign-on: with `?token=<single-use code>` the code is exchanged (by POST,
 * from this browser only) for the session, and never stored; with `?error=` the error is shown.
 * Either is then taken out of the address. True while the code is being exchanged.
 */
export function useSsoReturn(params: URLSearchParams, setParams: SetURLSearchParams): boolean {
  const applySession = useSession((s) => s.applySession);
  const [restoring, setRestoring] = useState(() => Boolean(params.get('token')));
  const tokenHandled = useRef(false);

  useEffect(() => {
    const code = params.get('token');
    if (!code || tokenHandled.current) return;
    tokenHandled.current = true;
    setParams({}, { replace: true });
    sessionApi
      .exchangeSsoCode(code)
      .then((response) => {
        applySession(response);
        void registerDevice();
        void refreshBadges();
      })
      .catch((error: unknown) => {
        void logout();
        toast.danger(ssoExchangeFailure(error));
      })
      .finally(() => setRestoring(false));
  }, [params, setParams, applySession]);

  useEffect(() => {
    const error = params.get('error');
    if (error === null) return;
    toast.danger(ssoReturnedError(error));
    setParams({}, { replace: true });
  }, [params, setParams]);

  return restoring;
}
