import { useEffect } from 'react';
import { useToasts, type Toast } from '@/lib/stores/toast';
import styles from './Toasts.module.css';

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useToasts((s) => s.dismiss);

  useEffect(() => {
    const timer = window.setTimeout(() => dismiss(toast.id), toast.duration);
    return () => window.clearTimeout(timer);
  }, [toast.id, toast.duration, dismiss]);

  return (
    // A tap dismisses early, a convenience: every toast goes by itself after its duration.
    // eslint-disable-next-line jsx-a11y-x/click-events-have-key-events -- see above
    <div
      className={`${styles.toast} ${styles[toast.tone]}`}
      role={toast.tone === 'danger' ? 'alert' : 'status'}
      data-tone={toast.tone}
      onClick={() => dismiss(toast.id)}
    >
      {toast.message}
    </div>
  );
}

/** Renders the toast queue; mount once in the app shell. */
export function Toasts() {
  const toasts = useToasts((s) => s.toasts);
  return (
    <div className={styles.region} aria-live="polite">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
