import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import type { User } from '@/lib/session/types';
import { takeDestination } from '@/lib/session/next';

/** Signed in (now or already): leave for the first applicable destination, once. */
export function useSignedInRedirect(user: User | null, restoring: boolean): void {
  const navigate = useNavigate();
  const redirected = useRef(false);
  useEffect(() => {
    if (!user || restoring || redirected.current) return;
    redirected.current = true;
    void navigate(takeDestination(), { replace: true });
  }, [user, restoring, navigate]);
}
