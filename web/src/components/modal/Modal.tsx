import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useUi } from '@/lib/stores/ui';
import { CloseIcon } from '../icons';
import styles from './Modal.module.css';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Buttons shown under the content. */
  footer?: ReactNode;
  /** sheet: slides up from the bottom; dialog: 300 px wide, centred; fullscreen: covers the app. */
  variant?: 'sheet' | 'dialog' | 'fullscreen';
  /** Hide the close (X) button, e.g. when the footer has its own. */
  hideClose?: boolean;
}

/**
 * Accessible modal: rendered in a portal, closes on Escape or backdrop tap,
 * keeps focus inside, and counts itself in the `ui` store so the tab bar hides.
 */
export function Modal({ open, onClose, title, children, footer, variant = 'sheet', hideClose = false }: ModalProps) {
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);

  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    if (!open) return;
    const { modalOpened, modalClosed } = useUi.getState();
    modalOpened();
    const previouslyFocused = document.activeElement as HTMLElement | null;
    panelRef.current?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    // The app under the modals is out of reach (focus, screen readers) while any is open.
    const app = document.getElementById('root');
    if (app) app.inert = true;

    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab' || !panelRef.current) return;
      const focusables = panelRef.current.querySelectorAll<HTMLElement>(
        'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])',
      );
      const first = focusables[0];
      const last = focusables[focusables.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);

    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      modalClosed();
      // Modals may close in any order: the app comes back when the last one has gone.
      if (app) app.inert = useUi.getState().openModals > 0;
      previouslyFocused?.focus?.();
    };
  }, [open]);

  if (!open) return null;

  return createPortal(
    // A tap on the backdrop itself closes; Escape does the same from the keyboard (onKey above).
    // eslint-disable-next-line jsx-a11y-x/click-events-have-key-events, jsx-a11y-x/no-static-element-interactions -- see above
    <div
      className={`${styles.backdrop} ${styles[variant]}`}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panelRef}
        className={styles.panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        {/* Plain blocks: a header or footer here would count as a second page banner or footer. */}
        <div className={styles.header}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          {!hideClose && (
            <button type="button" className={styles.close} onClick={onClose} aria-label="Close">
              <CloseIcon size={22} />
            </button>
          )}
        </div>
        <div className={styles.body}>{children}</div>
        {footer && <div className={styles.footer}>{footer}</div>}
      </div>
    </div>,
    document.body,
  );
}
