import { CheckIcon } from '@/components/icons';
import type { EmailCheck } from '@/lib/email';
import type { CourseDay } from '../api/types';
import type { SetField } from '../hooks/useRegistrationForm';
import {
  CATEGORIES,
  CATEGORY_LABELS,
  dayOption,
  EMAIL_HINT,
  NEWSLETTER_LABEL,
  toggleDay,
  type Missing,
  type RegistrationForm,
} from '../registration-form';
import { EndedMarker } from './EndedMarker';
import styles from './learn.module.css';

interface FieldsProps {
  /** The form's id, which its fields' ids start with. */
  id: string;
  form: RegistrationForm;
  set: SetField;
}

/** The course's days as buttons that toggle; a day that has taken place is shown, disabled. */
export function DayOptions({
  days,
  form,
  set,
  missing,
}: Omit<FieldsProps, 'id'> & { days: CourseDay[]; missing: Missing[] }) {
  return (
    <fieldset className={styles.fieldset}>
      <legend className="field-label">
        Days <span className={styles.required}>*</span>
      </legend>
      <div className={styles.dayOptions}>
        {days.map((d) => {
          const { ended, chosen } = dayOption(d, form.days);
          return (
            <button
              key={d.date_value}
              type="button"
              className={`${styles.dayOption} ${chosen ? styles.dayChosen : ''}`}
              aria-pressed={chosen}
              disabled={ended}
              onClick={() => set('days', toggleDay(form.days, d.date_value))}
            >
              {chosen && <CheckIcon size={16} />}
              {d.date_text}
              {ended && <EndedMarker />}
            </button>
          );
        })}
      </div>
      {missing.includes('day') && <p className={styles.fieldHint}>Choose at least one day</p>}
    </fieldset>
  );
}

/** Name, e-mail (with a hint while it is not an address) and hospital. */
export function ContactFields({ id, form, set, emailCheck }: FieldsProps & { emailCheck: EmailCheck }) {
  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-name`}>
          Name <span className={styles.required}>*</span>
        </label>
        <input
          id={`${id}-name`}
          className="input"
          value={form.name}
          onChange={(e) => set('name', e.target.value)}
          autoComplete="name"
          required
        />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-email`}>
          E-mail <span className={styles.required}>*</span>
        </label>
        <input
          id={`${id}-email`}
          className="input"
          type="email"
          value={form.email}
          onChange={(e) => set('email', e.target.value)}
          autoComplete="email"
          required
          aria-invalid={emailCheck === 'incomplete'}
          aria-describedby={emailCheck === 'incomplete' ? `${id}-email-hint` : undefined}
        />
        {emailCheck === 'incomplete' && (
          <p className={styles.fieldHint} id={`${id}-email-hint`} data-testid="email-hint">
            {EMAIL_HINT}
          </p>
        )}
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-hospital`}>
          Hospital
        </label>
        <input
          id={`${id}-hospital`}
          className="input"
          value={form.hospital}
          onChange={(e) => set('hospital', e.target.value)}
        />
      </div>
    </>
  );
}

/** Surgeon or staff, optional. */
export function CategoryOptions({ id, form, set }: FieldsProps) {
  return (
    <fieldset className={styles.fieldset}>
      <legend className="field-label">Category</legend>
      <div className={styles.categories}>
        {CATEGORIES.map((c) => (
          <label key={c} className={styles.radio}>
            <input
              type="radio"
              name={`${id}-category`}
              value={c}
              checked={form.category === c}
              onChange={() => set('category', c)}
            />
            {CATEGORY_LABELS[c]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The newsletter option and the two consents Register needs. */
export function ConsentChecks({ form, set }: Omit<FieldsProps, 'id'>) {
  return (
    <>
      <label className={styles.check}>
        <input type="checkbox" checked={form.newsletter} onChange={(e) => set('newsletter', e.target.checked)} />
        <span>{NEWSLETTER_LABEL}</span>
      </label>
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={form.privacyConsent}
          onChange={(e) => set('privacyConsent', e.target.checked)}
          required
        />
        <span>
          I have read and accept the{' '}
          <a href="/privacy" target="_blank" rel="noopener noreferrer">
            privacy policy
          </a>{' '}
          <span className={styles.required}>*</span>
        </span>
      </label>
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={form.dataConsent}
          onChange={(e) => set('dataConsent', e.target.checked)}
          required
        />
        <span>
          I consent to the use of my personal data for the organisation of the course, as described in the
          data-protection notice <span className={styles.required}>*</span>
        </span>
      </label>
    </>
  );
}
