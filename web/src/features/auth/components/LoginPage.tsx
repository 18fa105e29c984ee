import { useEffect, useReducer, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { BackIcon, BrandMark, LockIcon, MailIcon, ShieldIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { refreshBadges } from '@/lib/api/badges';
import { hasStatus, safeServerMessage } from '@/lib/api/errors';
import { sanitizeServerMessage } from '@/lib/sanitize';
import { sessionApi } from '@/lib/session/api';
import { registerDevice } from '@/lib/session/device';
import { logout } from '@/lib/session/logout';
import { takeDestination } from '@/lib/session/next';
import { selectUser, useSession } from '@/lib/session/store';
import { toast } from '@/lib/stores/toast';
import { useCtaUrl } from '@/lib/cta';
import { checkDomain, ssoUrl } from '../api/check-domain';
import { initialLoginState, isValidEmail, loginReducer, stepLabel } from '../login-machine';
import styles from './LoginPage.module.css';
import { ResetPasswordForm } from './ResetPasswordForm';

export const FORGOT_PASSWORD_URL = 'https://www.example.com/forgot-password';

const MESSAGES = {
  domain: 'An error occurred while checking the email domain. Retry later',
  failed: 'Login failed',
  missingEmail: 'Please enter your e-mail address',
  invalidEmail: 'Please enter a valid e-mail address',
  missingPassword: 'Please enter your password',
};

export default function LoginPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const user = useSession(selectUser);
  const applySession = useSession((s) => s.applySession);
  const [state, dispatch] = useReducer(loginReducer, initialLoginState);
  // Single sign-on comes back with `?token=<single-use code>`: exchanged (by POST,
  // from this browser only) for the session; the code itself is never stored.
  const [restoring, setRestoring] = useState(() => Boolean(params.get('token')));
  const tokenHandled = useRef(false);
  const redirected = useRef(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const privacyUrl = useCtaUrl('privacy_policy');
  // An e-mailed password reset link opens `/login?reset=<single-use token>`.
  const resetToken = params.get('reset');

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
        toast.danger(safeServerMessage(error) || MESSAGES.failed);
      })
      .finally(() => setRestoring(false));
  }, [params, setParams, applySession]);

  // Single sign-on came back with an error instead of a token.
  useEffect(() => {
    const error = params.get('error');
    if (error === null) return;
    toast.danger(sanitizeServerMessage(error) || MESSAGES.failed);
    setParams({}, { replace: true });
  }, [params, setParams]);

  // Signed in (now or already): leave for the first applicable destination.
  useEffect(() => {
    if (!user || restoring || redirected.current) return;
    redirected.current = true;
    void navigate(takeDestination(), { replace: true });
  }, [user, restoring, navigate]);

  useEffect(() => {
    if (state.step === 'password') passwordRef.current?.focus();
  }, [state.step]);

  const submitEmail = async (event: FormEvent) => {
    event.preventDefault();
    const email = state.email.trim();
    if (!email) return void toast.danger(MESSAGES.missingEmail);
    if (!isValidEmail(email)) return void toast.danger(MESSAGES.invalidEmail);
    if (state.busy) return;
    dispatch({ type: 'emailChanged', email });
    dispatch({ type: 'checkStarted' });
    try {
      const result = await checkDomain(email);
      dispatch({ type: 'checkSucceeded', azure: result.azure === true, source: result.source ?? null });
    } catch {
      dispatch({ type: 'checkFailed' });
      toast.danger(MESSAGES.domain);
    }
  };

  const submitPassword = async (event: FormEvent) => {
    event.preventDefault();
    if (state.busy) return;
    if (!state.password) return void toast.danger(MESSAGES.missingPassword);
    dispatch({ type: 'signInStarted' });
    try {
      const response = await sessionApi.login(state.email.trim(), state.password);
      dispatch({ type: 'signInSucceeded' });
      applySession(response);
      void registerDevice();
      void refreshBadges();
    } catch (error) {
      dispatch({ type: 'signInFailed' });
      const serverMessage = hasStatus(error, 429) ? safeServerMessage(error) : '';
      toast.danger(serverMessage || MESSAGES.failed);
    }
  };

  const startSso = () => {
    dispatch({ type: 'ssoStarted' });
    window.location.assign(ssoUrl(state.source ?? 'azure', state.email.trim()));
  };

  if (restoring || user) return <Loader full label="Signing in" />;

  return (
    <div className={styles.screen}>
      <header className={styles.hero}>
        <BrandMark size={56} inverted />
        <h1 className={styles.brand}>Companion</h1>
        <p className={styles.tagline}>Products, documents and events for the orthopaedic field team</p>
      </header>

      <main className={styles.card}>
        {resetToken ? (
          <ResetPasswordForm token={resetToken} onDone={() => setParams({}, { replace: true })} />
        ) : (
          <>
            <p className={styles.step} data-testid="login-step">
              {stepLabel(state.step)}
            </p>

            {state.step === 'email' && (
              <form className={styles.form} onSubmit={(e) => void submitEmail(e)} noValidate>
                <h2 className={styles.heading}>Sign in</h2>
                <p className={styles.lead}>Enter your work e-mail to continue.</p>
                <label className="field">
                  <span className="field-label">E-mail</span>
                  <span className={styles.inputWrap}>
                    <MailIcon size={20} className={styles.inputIcon} />
                    <input
                      className={`input ${styles.withIcon}`}
                      type="email"
                      name="email"
                      autoComplete="username"
                      inputMode="email"
                      placeholder="name@company.com"
                      aria-required="true"
                      value={state.email}
                      onChange={(e) => dispatch({ type: 'emailChanged', email: e.target.value })}
                    />
                  </span>
                </label>
                <button className="btn btn-primary btn-block" type="submit" disabled={state.busy}>
                  {state.busy ? 'Checking…' : 'Next'}
                </button>
              </form>
            )}

            {state.step === 'password' && (
              <form className={styles.form} onSubmit={(e) => void submitPassword(e)} noValidate>
                <h2 className={styles.heading}>Enter your password</h2>
                <p className={styles.account}>{state.email}</p>
                <label className="field">
                  <span className="field-label">Password</span>
                  <span className={styles.inputWrap}>
                    <LockIcon size={20} className={styles.inputIcon} />
                    <input
                      ref={passwordRef}
                      className={`input ${styles.withIcon}`}
                      type="password"
                      name="password"
                      autoComplete="current-password"
                      aria-required="true"
                      value={state.password}
                      onChange={(e) => dispatch({ type: 'passwordChanged', password: e.target.value })}
                    />
                  </span>
                </label>
                <button className="btn btn-primary btn-block" type="submit" disabled={state.busy}>
                  {state.busy ? 'Signing in…' : 'Sign in'}
                </button>
                <a className={styles.forgot} href={FORGOT_PASSWORD_URL} target="_blank" rel="noopener noreferrer">
                  Forgot your password?
                </a>
              </form>
            )}

            {state.step === 'sso' && (
              <div className={styles.form}>
                <h2 className={styles.heading}>Corporate sign-in</h2>
                <p className={styles.account}>{state.email}</p>
                <p className={styles.lead}>Your organisation signs in with its corporate account.</p>
                <button className="btn btn-primary btn-block" type="button" onClick={startSso} disabled={state.busy}>
                  Login with Azure
                </button>
              </div>
            )}

            {state.step !== 'email' && (
              <button
                className={`btn btn-ghost ${styles.back}`}
                type="button"
                onClick={() => dispatch({ type: 'back' })}
              >
                <BackIcon size={18} /> Back
              </button>
            )}
          </>
        )}
      </main>

      <footer className={styles.footer}>
        {/* Spec 2.3: the login screen's Privacy Policy link is external. */}
        <a href={privacyUrl} className={styles.privacy} target="_blank" rel="noopener noreferrer">
          <ShieldIcon size={16} /> Privacy Policy
        </a>
      </footer>
    </div>
  );
}
