import { useId, useState } from 'react';
import { CheckIcon } from '@/components/icons';
import { Modal } from '@/components/modal/Modal';
import { safeServerMessage } from '@/lib/api/errors';
import { useSession } from '@/lib/session/store';
import { toast } from '@/lib/stores/toast';
import { useRegisterToCourse } from '../api/register-course';
import type { Course } from '../api/types';
import {
  canSubmit,
  initialForm,
  NEWSLETTER_LABEL,
  REGISTERED,
  toggleDay,
  toPayload,
  type Category,
  type RegistrationForm,
} from '../registration-form';
import styles from './learn.module.css';

/** Shown when the server gives no usable message (the spec does not give this text). */
const REGISTRATION_FAILED = 'An error occurred while registering to the course. Try again later';

export interface RegistrationModalProps {
  course: Course;
  open: boolean;
  /** The day chosen in the agenda, pre-selected. */
  day: string | null;
  onClose: () => void;
}

/** Full-screen registration form (spec section 5). Mount it anew for each opening. */
export function RegistrationModal({ course, open, day, onClose }: RegistrationModalProps) {
  const id = useId();
  const user = useSession((s) => s.user);
  const [form, setForm] = useState<RegistrationForm>(() =>
    initialForm(day, user ? { name: `${user.first_name} ${user.last_name}`.trim(), email: user.email } : null),
  );
  const register = useRegisterToCourse();
  const set = <K extends keyof RegistrationForm>(key: K, value: RegistrationForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const ready = canSubmit(form) && !register.isPending;

  const submit = () => {
    if (!canSubmit(form)) return;
    register.mutate(
      toPayload(
        course.id,
        form,
        course.days.map((d) => d.date_value),
      ),
      {
        onSuccess: () => {
          toast.dark(REGISTERED);
          onClose();
        },
        // The form stays open so the user can correct it.
        onError: (error) => toast.danger(safeServerMessage(error) || REGISTRATION_FAILED),
      },
    );
  };

  return (
    <Modal
      open={open}
      onClose={onClose}
      variant="fullscreen"
      title="Register to this course"
      footer={
        <button type="submit" form={`${id}-form`} className="btn btn-primary" disabled={!ready}>
          Register
        </button>
      }
    >
      <form
        id={`${id}-form`}
        className={styles.form}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <p className={styles.formCourse}>{course.title}</p>

        <fieldset className={styles.fieldset}>
          <legend className="field-label">
            Days <span className={styles.required}>*</span>
          </legend>
          <div className={styles.dayOptions}>
            {course.days.map((d) => {
              const chosen = form.days.includes(d.date_value);
              return (
                <button
                  key={d.date_value}
                  type="button"
                  className={`${styles.dayOption} ${chosen ? styles.dayChosen : ''}`}
                  aria-pressed={chosen}
                  onClick={() => set('days', toggleDay(form.days, d.date_value))}
                >
                  {chosen && <CheckIcon size={16} />}
                  {d.date_text}
                </button>
              );
            })}
          </div>
        </fieldset>

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
          />
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

        <fieldset className={styles.fieldset}>
          <legend className="field-label">Category</legend>
          <div className={styles.categories}>
            {(['surgeon', 'staff'] as Category[]).map((c) => (
              <label key={c} className={styles.radio}>
                <input
                  type="radio"
                  name={`${id}-category`}
                  value={c}
                  checked={form.category === c}
                  onChange={() => set('category', c)}
                />
                {c === 'surgeon' ? 'Surgeon' : 'Staff'}
              </label>
            ))}
          </div>
        </fieldset>

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
        <p className={styles.muted}>
          <span className={styles.required}>*</span> Required
        </p>
      </form>
    </Modal>
  );
}
