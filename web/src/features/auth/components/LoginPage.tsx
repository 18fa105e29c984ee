import { useSearchParams } from 'react-router';
import { BrandMark, ShieldIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { selectUser, useSession } from '@/lib/session/store';
import { useCtaUrl } from '@/lib/cta';
import { useLoginForm } from '../hooks/useLoginForm';
import { useSignedInRedirect } from '../hooks/useSignedInRedirect';
import { useSsoReturn } from '../hooks/useSsoReturn';
import styles from './LoginPage.module.css';
import { LoginSteps } from './LoginSteps';
import { ResetPasswordForm } from './ResetPasswordForm';

export default function LoginPage() {
  const [params, setParams] = useSearchParams();
  const user = useSession(selectUser);
  const restoring = useSsoReturn(params, setParams);
  useSignedInRedirect(user, restoring);
  const login = useLoginForm();
  const privacyUrl = useCtaUrl('privacy_policy');
  // An e-mailed password reset link opens `/login?reset=<single-use token>`.
  const resetToken = params.get('reset');

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
          <LoginSteps {...login} />
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
