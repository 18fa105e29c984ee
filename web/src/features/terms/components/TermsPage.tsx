import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageFrame } from '@/components/page/PageFrame';
import { Toggle } from '@/components/Toggle';
import { takeDestination } from '@/lib/session/next';
import { useSession } from '@/lib/session/store';
import { toast } from '@/lib/stores/toast';
import { acceptTerms } from '../api/accept-terms';
import styles from './TermsPage.module.css';

const PAGES = [1, 2, 3, 4, 5, 6].map((n) => `/terms/page-${n}.svg`);
const SAVE_FAILED = 'An error occurred while saving your consent. Try again later';

export default function TermsPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const alreadyAccepted = params.get('accepted') === 'true';
  const termsAccepted = useSession((s) => s.termsAccepted);
  const [accepted, setAccepted] = useState(false);
  const [saving, setSaving] = useState(false);

  const next = async () => {
    if (!accepted || saving) return;
    setSaving(true);
    try {
      await acceptTerms();
      termsAccepted();
      void navigate(takeDestination(), { replace: true });
    } catch {
      toast.danger(SAVE_FAILED);
      setSaving(false);
    }
  };

  const footer = alreadyAccepted ? (
    <button type="button" className="btn btn-outline btn-block" onClick={() => void navigate('/menu')}>
      Back
    </button>
  ) : (
    <div className={styles.consent}>
      <Toggle label="I accept the terms and conditions" checked={accepted} onChange={setAccepted} />
      <button
        type="button"
        className="btn btn-primary btn-block"
        disabled={!accepted || saving}
        onClick={() => void next()}
      >
        Next
      </button>
    </div>
  );

  return (
    <PageFrame title="Terms and conditions" footer={footer}>
      <div className={styles.pages}>
        {PAGES.map((src, index) => (
          <img
            key={src}
            className={styles.page}
            src={src}
            alt={`Terms and conditions, page ${index + 1} of ${PAGES.length}`}
            width={400}
            height={700}
            loading={index < 2 ? 'eager' : 'lazy'}
          />
        ))}
      </div>
    </PageFrame>
  );
}
