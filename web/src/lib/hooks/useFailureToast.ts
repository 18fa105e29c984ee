import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { hasStatus } from '../api/errors';
import { toast } from '../stores/toast';

/** Generic retrieval failure (spec 8). */
export const GENERIC_ERROR = 'An error occurred while getting all the informations';

/**
 * Shows a toast once when a retrieval fails, never a blank screen. With
 * `redirectTo`, a missing item (404) or a missing route id also sends the user
 * back to the parent list (spec 8, missing route id).
 */
export function useFailureToast(
  error: unknown,
  options: { message?: string; redirectTo?: string; missingId?: boolean } = {},
): void {
  const navigate = useNavigate();
  const shown = useRef<unknown>(null);
  const { message = GENERIC_ERROR, redirectTo, missingId = false } = options;

  useEffect(() => {
    const failed = missingId || Boolean(error);
    if (!failed || shown.current === (error ?? 'missing')) return;
    shown.current = error ?? 'missing';
    // A 401 is the shell's business (session-expired toast and logout).
    if (hasStatus(error, 401)) return;
    if (redirectTo && (missingId || hasStatus(error, 404, 400))) {
      toast.dangerOn(redirectTo, message);
      void navigate(redirectTo, { replace: true });
    } else {
      toast.danger(message);
    }
  }, [error, missingId, message, redirectTo, navigate]);
}
