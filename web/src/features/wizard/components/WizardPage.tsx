import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { InfoIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { startStep, useGuide } from '../api/get-guide';
import styles from './WizardPage.module.css';

/** Spec section 8: the generic retrieval failure. */
const GUIDE_ERROR = 'An error occurred while getting all the informations';

/**
 * /wizard: the guided tour of the main screens, from content. An info button opens it at its
 * own screen's step (`?screen=documents`); the steps can be walked through and each offers a way
 * to its screen.
 */
export default function WizardPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const query = useGuide();
  useFailureToast(query.error, { message: GUIDE_ERROR });
  const steps = query.data ?? [];
  const screen = params.get('screen');
  // The step chosen here; until then the asking screen's own step.
  const [chosen, setIndex] = useState<number | null>(null);
  const index = query.data ? (chosen ?? startStep(query.data, screen)) : null;
  const current = index === null ? null : steps[index];

  return (
    <PageFrame title="Guide" back>
      {query.isPending && <Loader />}
      {(query.isError || (query.data && steps.length === 0)) && (
        <EmptyState icon={<InfoIcon size={32} />} title="The guide is not available right now" />
      )}
      {current && index !== null && (
        <section className={styles.card} aria-labelledby="guide-step-title" data-testid="guide-step">
          <p className={styles.counter}>
            Step {index + 1} of {steps.length}
          </p>
          {current.image && <img className={styles.image} src={current.image} alt="" />}
          <h2 id="guide-step-title" className={styles.title}>
            {current.title}
          </h2>
          <p className={styles.text}>{current.text}</p>
          <button type="button" className="btn btn-outline btn-block" onClick={() => void navigate(current.path)}>
            Go to {current.title}
          </button>
          <ol className={styles.dots} aria-label="Steps">
            {steps.map((s, i) => (
              <li key={s.screen}>
                <button
                  type="button"
                  className={`${styles.dot} ${i === index ? styles.dotOn : ''}`}
                  aria-label={s.title}
                  aria-current={i === index ? 'step' : undefined}
                  onClick={() => setIndex(i)}
                />
              </li>
            ))}
          </ol>
          <div className={styles.nav}>
            <button type="button" className="btn btn-ghost" onClick={() => setIndex(index - 1)} disabled={index === 0}>
              Previous
            </button>
            {index < steps.length - 1 ? (
              <button type="button" className="btn btn-primary" onClick={() => setIndex(index + 1)}>
                Next
              </button>
            ) : (
              <button type="button" className="btn btn-primary" onClick={() => void navigate(-1)}>
                Done
              </button>
            )}
          </div>
        </section>
      )}
    </PageFrame>
  );
}
