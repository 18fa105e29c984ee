import { BackIcon, LockIcon, MailIcon } from '@/components/icons';
import type { LoginForm } from '../hooks/useLoginForm';
import { FORGOT_PASSWORD_URL } from '../login-messages';
import { stepLabel } from '../login-machine';
import styles from './LoginPage.module.css';

/** The login form: the step indicator, the current step and, past the first, Back. */
export function LoginSteps(login: LoginForm) {
  const { state } = login;
  return (
    <>
      <p className={styles.step} data-testid="login-step">
        {stepLabel(state.step)}
      </p>

      {state.step === 'email' && <EmailStep {...login} />}

      {state.step === 'password' && <PasswordStep {...login} />}

      {state.step === 'sso' && <SsoStep {...login} />}

      {state.step !== 'email' && (
        <button className={`btn btn-ghost ${styles.back}`} type="button" onClick={login.back}>
          <BackIcon size={18} /> Back
        </button>
      )}
    </>
  );
}

/** Step 1: the work e-mail. */
function EmailStep({ state, changeEmail, submitEmail }: LoginForm) {
  return (
    <form
      className={styles.form}
      onSubmit={(e) => {
        e.preventDefault();
        void submitEmail();
      }}
      noValidate
    >
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
            onChange={(e) => changeEmail(e.target.value)}
          />
        </span>
      </label>
      <button className="btn btn-primary btn-block" type="submit" disabled={state.busy}>
        {state.busy ? 'Checking…' : 'Next'}
      </button>
    </form>
  );
}

/** Step 2 for an account with a password. */
function PasswordStep({ state, passwordRef, changePassword, submitPassword }: LoginForm) {
  return (
    <form
      className={styles.form}
      onSubmit={(e) => {
        e.preventDefault();
        void submitPassword();
      }}
      noValidate
    >
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
            onChange={(e) => changePassword(e.target.value)}
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
  );
}

/** Step 2 for an organisation that signs in with its corporate account. */
function SsoStep({ state, startSso }: LoginForm) {
  return (
    <div className={styles.form}>
      <h2 className={styles.heading}>Corporate sign-in</h2>
      <p className={styles.account}>{state.email}</p>
      <p className={styles.lead}>Your organisation signs in with its corporate account.</p>
      <button className="btn btn-primary btn-block" type="button" onClick={startSso} disabled={state.busy}>
        Login with Azure
      </button>
    </div>
  );
}
