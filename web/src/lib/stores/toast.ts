import { create } from 'zustand';

/** Danger is the default; dark is for confirmations (spec section 8). */
export type ToastTone = 'danger' | 'dark';

export const DEFAULT_TOAST_DURATION = 3000;

/** An error raised this recently is part of the change of screen (an error, then a redirect). */
export const SCREEN_CHANGE_GRACE_MS = 1000;

export interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
  duration: number;
  /** When it was shown (ms since the epoch). */
  shownAt: number;
  /**
   * The screen (path) an error is for when it is raised on the way there, as the sign-out that
   * leads to /login: it stays when that screen opens, however long opening it takes.
   */
  screen?: string;
}

interface ToastState {
  toasts: Toast[];
  push: (toast: Omit<Toast, 'id' | 'shownAt'>) => number;
  dismiss: (id: number) => void;
  /**
   * Removes the error toasts shown before `before` (all of them without it), except those raised
   * for the screen `current`.
   */
  dismissErrors: (before?: number, current?: string) => void;
  clear: () => void;
}

let nextId = 1;

export const useToasts = create<ToastState>()((set) => ({
  toasts: [],
  push(toast) {
    const id = nextId++;
    set((s) => ({
      toasts: [
        // A message already on screen is not stacked twice; a confirmation answers the errors
        // still on screen (the action that failed has now succeeded).
        ...s.toasts.filter((t) => t.message !== toast.message && !(toast.tone === 'dark' && t.tone === 'danger')),
        { ...toast, id, shownAt: Date.now() },
      ],
    }));
    return id;
  },
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  dismissErrors: (before, current) =>
    set((s) => {
      const kept = s.toasts.filter(
        (t) =>
          t.tone !== 'danger' ||
          (before !== undefined && t.shownAt >= before) ||
          (current !== undefined && t.screen === current),
      );
      return kept.length === s.toasts.length ? s : { toasts: kept };
    }),
  clear: () => set({ toasts: [] }),
}));

export interface ToastOptions {
  tone?: ToastTone;
  duration?: number;
  /** The screen the message is for, when it is shown on the way there. */
  screen?: string;
}

/** Shows a toast from anywhere (components, hooks, plain functions). Empty messages are ignored. */
export function showToast(message: string, options: ToastOptions = {}): number | null {
  if (!message) return null;
  return useToasts.getState().push({
    message,
    tone: options.tone ?? 'danger',
    duration: options.duration ?? DEFAULT_TOAST_DURATION,
    ...(options.screen === undefined ? {} : { screen: options.screen }),
  });
}

/**
 * The screen changed: the errors of the previous screen go. One shown a moment ago stays, since
 * it belongs to the change (a screen that cannot load shows its error and goes back).
 */
export function dismissErrorsOfPreviousScreen(current?: string, now = Date.now()): void {
  useToasts.getState().dismissErrors(now - SCREEN_CHANGE_GRACE_MS, current);
}

/** The action that failed is being tried again: its error goes. */
export function dismissErrors(): void {
  useToasts.getState().dismissErrors();
}

export const toast = {
  danger: (message: string, duration?: number) => showToast(message, { tone: 'danger', duration }),
  /** An error shown on the way to the screen at `to` (path, query ignored): it stays when that screen opens. */
  dangerOn: (to: string, message: string) => showToast(message, { tone: 'danger', screen: to.split(/[?#]/)[0] }),
  dark: (message: string, duration?: number) => showToast(message, { tone: 'dark', duration }),
};
