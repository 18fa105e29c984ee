import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { Splash } from '@/components/Splash';
import { startOffline } from '@/lib/offline';
import { registerServiceWorker } from '@/lib/offline/register-sw';
import { queryClient } from '@/lib/query-client';
import { router } from './router';
import { bindRealtimeToSession } from './realtime-session';
import { handleSessionExpiry, handleTermsRequired } from './session-expiry';
import { isSharedLinkPath } from './shared-link';

/** The splash screen stays this long on a fresh load of the app. */
export const SPLASH_MS = 2000;
const SPLASH_FADE_MS = 300;

export function App() {
  // Opened on a shared link: the recipient's page alone, none of the signed-in app's machinery.
  const [linkOnly] = useState(() => isSharedLinkPath(window.location.pathname));
  const [splash, setSplash] = useState<'on' | 'leaving' | 'off'>(linkOnly ? 'off' : 'on');

  useEffect(() => (linkOnly ? undefined : handleSessionExpiry(router)), [linkOnly]);
  useEffect(() => (linkOnly ? undefined : handleTermsRequired(router)), [linkOnly]);
  useEffect(() => (linkOnly ? undefined : bindRealtimeToSession(router)), [linkOnly]);
  useEffect(() => (linkOnly ? undefined : startOffline()), [linkOnly]);
  useEffect(() => (linkOnly ? undefined : registerServiceWorker()), [linkOnly]);

  useEffect(() => {
    if (linkOnly) return;
    const leave = window.setTimeout(() => setSplash('leaving'), SPLASH_MS);
    const off = window.setTimeout(() => setSplash('off'), SPLASH_MS + SPLASH_FADE_MS);
    return () => {
      window.clearTimeout(leave);
      window.clearTimeout(off);
    };
  }, [linkOnly]);

  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      {splash !== 'off' && <Splash leaving={splash === 'leaving'} />}
    </QueryClientProvider>
  );
}
