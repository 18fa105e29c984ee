import { useState, type FormEvent } from 'react';
import { LockIcon } from '@/components/icons';
import { safeServerMessage } from '@/lib/api/errors';
import { sessionApi } from '@/lib/session/api';
import { toast } from '@/lib/stores/toast';
import styles from './LoginPage.module.css';

const RESET_MESSAGES = {
  missing: 'Please enter your new password',
  mismatch: 'The two passwords are different',
  failed: 'The password could not be changed. Ask for a new link',
  done: 'Your password has been changed. Sign in with it',
};

/**
 * The screen of an e-mailed reset link (`/login?reset=<token>`): a new password, typed twice.
 * The server checks the password policy and that the link is unused and recent; a refused
 * password leaves the link usable, so the form stays open with the server's message.
 */
export function ResetPasswordForm({ token, onDone }: { token: string; onDone: () => void }) {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      toast.danger(RESET_MESSAGES.missing);
      return;
    }
    if (password !== repeat) {
      toast.danger(RESET_MESSAGES.mismatch);
      return;
    }
    setBusy(true);
    try {
      await sessionApi.confirmPasswordReset(token, password);
      toast.dark(RESET_MESSAGES.done);
      onDone();
    } catch (error: unknown) {
      toast.danger(safeServerMessage(error) || RESET_MESSAGES.failed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
      <h2 className={styles.heading}>Choose a new password</h2>
      <p className={styles.lead}>At least 10 characters, not one of the commonest passwords.</p>
      <label className="field">
        <span className="field-label">New password</span>
        <span className={styles.inputWrap}>
          <LockIcon size={20} className={styles.inputIcon} />
          <input
            className={`input ${styles.withIcon}`}
            type="password"
            name="new-password"
            autoComplete="new-password"
            aria-required="true"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </span>
      </label>
      <label className="field">
        <span className="field-label">Repeat the new password</span>
        <span className={styles.inputWrap}>
          <LockIcon size={20} className={styles.inputIcon} />
          <input
            className={`input ${styles.withIcon}`}
            type="password"
            name="repeat-password"
            autoComplete="new-password"
            aria-required="true"
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
          />
        </span>
      </label>
      <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save the new password'}
      </button>
    </form>
  );
}
