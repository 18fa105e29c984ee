import { create } from 'zustand';

interface UpdateState {
  /** A new version of the app is installed and waits for the user's go-ahead. */
  ready: boolean;
  /** Activates the waiting version and reloads the page. */
  apply: () => void;
}

export const useAppUpdate = create<UpdateState>()(() => ({ ready: false, apply: () => undefined }));

/**
 * Registers the service worker (production builds only: in development Vite serves modules the
 * worker would cache). A new version is not taken while the user is working: it waits until the user chooses
 * Reload in the update toast.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  // Loaded apart, after start-up: the first screen does not wait for it.
  void import('virtual:pwa-register').then(({ registerSW }) => {
    const update = registerSW({
      onNeedRefresh: () => useAppUpdate.setState({ ready: true, apply: () => void update(true) }),
      onRegisterError: (error: unknown) => console.warn('Service worker registration failed', error),
    });
  });
}
