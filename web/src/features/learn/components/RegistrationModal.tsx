import { useId } from 'react';
import { Modal } from '@/components/modal/Modal';
import type { Course } from '../api/types';
import { useRegistrationForm } from '../hooks/useRegistrationForm';
import { missingSummary, type Missing } from '../registration-form';
import styles from './learn.module.css';
import { CategoryOptions, ConsentChecks, ContactFields, DayOptions } from './RegistrationFields';

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
  const { form, set, missing, ready, emailCheck, submit } = useRegistrationForm(course, day, onClose);

  return (
    <Modal
      open={open}
      onClose={onClose}
      variant="fullscreen"
      title="Register to this course"
      footer={<RegistrationFooter id={id} missing={missing} ready={ready} />}
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

        <DayOptions days={course.days} form={form} set={set} missing={missing} />

        <ContactFields id={id} form={form} set={set} emailCheck={emailCheck} />

        <CategoryOptions id={id} form={form} set={set} />

        <ConsentChecks form={form} set={set} />
        <p className={styles.muted}>
          <span className={styles.required}>*</span> Required
        </p>
      </form>
    </Modal>
  );
}

/** Register, and above it while it is disabled, what is still missing. */
function RegistrationFooter({ id, missing, ready }: { id: string; missing: Missing[]; ready: boolean }) {
  return (
    <div className={styles.formFooter}>
      {missing.length > 0 && (
        <p className={styles.missing} id={`${id}-missing`} data-testid="registration-missing">
          {missingSummary(missing)}
        </p>
      )}
      <button
        type="submit"
        form={`${id}-form`}
        className="btn btn-primary btn-block"
        disabled={!ready}
        aria-describedby={missing.length > 0 ? `${id}-missing` : undefined}
      >
        Register
      </button>
    </div>
  );
}
