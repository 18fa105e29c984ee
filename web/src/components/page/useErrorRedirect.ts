import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { hasStatus, safeServerMessage } from '@/lib/api/errors';
import { toast } from '@/lib/stores/toast';

/** The generic retrieval failure message (spec section 8). */
export const GENERIC_ERROR = 'An error occurred while getting all the informations';

/**
 * A screen that cannot load (missing id, not found, server error) shows a toast and goes back to
 * its list (spec section 8). A 401 is left to the session handling (logout).
 */
export function useErrorRedirect(failed: boolean, error: unknown, to: string, message = GENERIC_ERROR): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (!failed || hasStatus(error, 401)) return;
    toast.dangerOn(to, safeServerMessage(error) || message);
    void navigate(to, { replace: true });
  }, [failed, error, to, message, navigate]);
}
