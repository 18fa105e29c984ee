import { create } from 'zustand';

/** Danger is the default; dark is for confirmations (spec section 8). */
export type ToastTone = 'danger' | 'dark';

export const DEFAULT_TOAST_DURATION = 3000;

export interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
  duration: number;
}

interface ToastState {
  toasts: Toast[];
  push: (toast: Omit<Toast, 'id'>) => number;
  dismiss: (id: number) => void;
  clear: () => void;
}

let nextId = 1;

export const useToasts = create<ToastState>()((set) => ({
  toasts: [],
  push(toast) {
    const id = nextId++;
    // A message already on screen is not stacked twice.
    set((s) => ({ toasts: [...s.toasts.filter((t) => t.message !== toast.message), { ...toast, id }] }));
    return id;
  },
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  clear: () => set({ toasts: [] }),
}));

export interface ToastOptions {
  tone?: ToastTone;
  duration?: number;
}

/** Shows a toast from anywhere (components, hooks, plain functions). Empty messages are ignored. */
export function showToast(message: string, options: ToastOptions = {}): number | null {
  if (!message) return null;
  return useToasts.getState().push({
    message,
    tone: options.tone ?? 'danger',
    duration: options.duration ?? DEFAULT_TOAST_DURATION,
  });
}

export const toast = {
  danger: (message: string, duration?: number) => showToast(message, { tone: 'danger', duration }),
  dark: (message: string, duration?: number) => showToast(message, { tone: 'dark', duration }),
};
