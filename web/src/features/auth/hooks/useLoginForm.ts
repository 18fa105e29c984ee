import { useEffect, useReducer, useRef, type RefObject } from 'react';
import { refreshBadges } from '@/lib/api/badges';
import { sessionApi } from '@/lib/session/api';
import { registerDevice } from '@/lib/session/device';
import { useSession } from '@/lib/session/store';
import { dismissErrors, toast } from '@/lib/stores/toast';
import { checkDomain, ssoUrl } from '../api/check-domain';
import { emailProblem, LOGIN_MESSAGES, signInFailure } from '../login-messages';
import { initialLoginState, loginReducer, type LoginState } from '../login-machine';

export interface LoginForm {
  state: LoginState;
  /** The password field, focused when the password step opens. */
  passwordRef: RefObject<HTMLInputElement | null>;
  changeEmail: (email: string) => void;
  changePassword: (password: string) => void;
  /** Step 1: checks the e-mail's domain, which decides between password and single sign-on. */
  submitEmail: () => Promise<void>;
  /** Step 2: signs in with the password. */
  submitPassword: () => Promise<void>;
  /** Step 2: leaves for the organisation's single sign-on. */
  startSso: () => void;
  /** Back to step 1. */
  back: () => void;
}

/** The two steps of the login form (see login-machine) and the calls they make. */
export function useLoginForm(): LoginForm {
  const applySession = useSession((s) => s.applySession);
  const [state, dispatch] = useReducer(loginReducer, initialLoginState);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (state.step === 'password') passwordRef.current?.focus();
  }, [state.step]);

  const submitEmail = async () => {
    const email = state.email.trim();
    const problem = emailProblem(email);
    if (problem) return void toast.danger(problem);
    if (state.busy) return;
    dispatch({ type: 'emailChanged', email });
    dispatch({ type: 'checkStarted' });
    try {
      const result = await checkDomain(email);
      dispatch({ type: 'checkSucceeded', azure: result.azure === true, source: result.source ?? null });
    } catch {
      dispatch({ type: 'checkFailed' });
      toast.danger(LOGIN_MESSAGES.domain);
    }
  };

  const submitPassword = async () => {
    if (state.busy) return;
    if (!state.password) return void toast.danger(LOGIN_MESSAGES.missingPassword);
    dispatch({ type: 'signInStarted' });
    try {
      const response = await sessionApi.login(state.email.trim(), state.password);
      dispatch({ type: 'signInSucceeded' });
      // Signed in: an earlier 'Login failed' does not follow the user onto the next screen.
      dismissErrors();
      applySession(response);
      void registerDevice();
      void refreshBadges();
    } catch (error) {
      dispatch({ type: 'signInFailed' });
      toast.danger(signInFailure(error));
    }
  };

  const startSso = () => {
    dispatch({ type: 'ssoStarted' });
    window.location.assign(ssoUrl(state.source ?? 'azure', state.email.trim()));
  };

  return {
    state,
    passwordRef,
    changeEmail: (email) => dispatch({ type: 'emailChanged', email }),
    changePassword: (password) => dispatch({ type: 'passwordChanged', password }),
    submitEmail,
    submitPassword,
    startSso,
    back: () => dispatch({ type: 'back' }),
  };
}
