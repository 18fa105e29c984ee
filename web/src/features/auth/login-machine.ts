/**
 * The two steps of the login screen as a reducer.
 *
 * email ──check ok, azure=false──▶ password ──back──▶ email
 *       ──check ok, azure=true───▶ sso      ──back──▶ email
 */

export type LoginStep = 'email' | 'password' | 'sso';

export interface LoginState {
  step: LoginStep;
  email: string;
  password: string;
  /** Single sign-on provider chosen by the server for the e-mail domain. */
  source: string | null;
  /** A call is running (domain check, sign-in, redirect to single sign-on). */
  busy: boolean;
}

export type LoginEvent =
  | { type: 'emailChanged'; email: string }
  | { type: 'passwordChanged'; password: string }
  | { type: 'checkStarted' }
  | { type: 'checkSucceeded'; azure: boolean; source: string | null }
  | { type: 'checkFailed' }
  | { type: 'signInStarted' }
  | { type: 'signInFailed' }
  | { type: 'signInSucceeded' }
  | { type: 'ssoStarted' }
  | { type: 'back' };

export const initialLoginState: LoginState = {
  step: 'email',
  email: '',
  password: '',
  source: null,
  busy: false,
};

/** Default single sign-on provider when the server names none. */
export const DEFAULT_SSO_SOURCE = 'azure';

export function loginReducer(state: LoginState, event: LoginEvent): LoginState {
  switch (event.type) {
    case 'emailChanged':
      return state.step === 'email' ? { ...state, email: event.email } : state;
    case 'passwordChanged':
      return state.step === 'password' ? { ...state, password: event.password } : state;
    case 'checkStarted':
      return state.step === 'email' && !state.busy ? { ...state, busy: true } : state;
    case 'checkSucceeded':
      if (state.step !== 'email') return state;
      return event.azure
        ? { ...state, step: 'sso', source: event.source || DEFAULT_SSO_SOURCE, password: '', busy: false }
        : { ...state, step: 'password', source: null, password: '', busy: false };
    case 'checkFailed':
      return { ...state, busy: false };
    case 'signInStarted':
      return state.step === 'password' && !state.busy ? { ...state, busy: true } : state;
    case 'signInFailed':
      return { ...state, password: '', busy: false };
    case 'signInSucceeded':
      return { ...state, password: '', busy: false };
    case 'ssoStarted':
      return state.step === 'sso' ? { ...state, busy: true } : state;
    case 'back':
      return { ...state, step: 'email', password: '', source: null, busy: false };
  }
}

export function isValidEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());
}

/** Label of the step indicator. */
export function stepLabel(step: LoginStep): 'Step 1/2' | 'Step 2/2' {
  return step === 'email' ? 'Step 1/2' : 'Step 2/2';
}
