import { useState } from 'react';
import { safeServerMessage } from '@/lib/api/errors';
import { checkEmail, type EmailCheck } from '@/lib/email';
import { useSession } from '@/lib/session/store';
import { toast } from '@/lib/stores/toast';
import { useRegisterToCourse } from '../api/register-course';
import type { Course } from '../api/types';
import { openDays } from '../course-time';
import {
  canSubmit,
  initialForm,
  missingItems,
  REGISTERED,
  toPayload,
  userContact,
  type Missing,
  type RegistrationForm,
} from '../registration-form';

/** Shown when the server gives no usable message (the spec does not give this text). */
const REGISTRATION_FAILED = 'An error occurred while registering to the course. Try again later';

/** Sets one field of the form. */
export type SetField = <K extends keyof RegistrationForm>(key: K, value: RegistrationForm[K]) => void;

export interface RegistrationFormState {
  form: RegistrationForm;
  set: SetField;
  /** What still keeps Register disabled. */
  missing: Missing[];
  /** Register can be pressed: nothing is missing and no registration is under way. */
  ready: boolean;
  emailCheck: EmailCheck;
  /** Sends the registration; on success says so and closes, on failure keeps the form open. */
  submit: () => void;
}

/**
 * The registration form of a course: it starts with the day chosen in the agenda (when still
 * open) and the user's name and e-mail.
 */
export function useRegistrationForm(course: Course, day: string | null, onClose: () => void): RegistrationFormState {
  const user = useSession((s) => s.user);
  const [form, setForm] = useState<RegistrationForm>(() => initialForm(day, userContact(user), openDays(course.days)));
  const register = useRegisterToCourse();
  const set: SetField = (key, value) => setForm((f) => ({ ...f, [key]: value }));
  const missing = missingItems(form);
  const ready = missing.length === 0 && !register.isPending;
  const emailCheck = checkEmail(form.email);

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

  return { form, set, missing, ready, emailCheck, submit };
}
