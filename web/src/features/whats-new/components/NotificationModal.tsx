import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { Modal } from '@/components/modal/Modal';
import { isInAppLink } from '@/lib/session/destination';
import { formatShortDate } from '@/lib/dates';
import { sanitizeHtml } from '@/lib/sanitize-html';
import { linkRoute } from '../link-route';
import type { AppNotification } from '../types';
import styles from './WhatsNewPage.module.css';

interface NotificationModalProps {
  notification: AppNotification | null;
  /** Closing refreshes the list (the caller's job). */
  onClose: () => void;
}

/** One notification: title, optional preview, the HTML message and 'Read more' when it links somewhere. */
export function NotificationModal({ notification, onClose }: NotificationModalProps) {
  const navigate = useNavigate();
  const route = linkRoute(notification?.link);

  const go = (path: string) => {
    onClose();
    void navigate(path);
  };

  // Links inside the message stay in the app when they point into it.
  const onMessageClick = (event: MouseEvent<HTMLDivElement>) => {
    const anchor = (event.target as HTMLElement).closest('a');
    const href = anchor?.getAttribute('href');
    if (!anchor || !href) return;
    event.preventDefault();
    if (isInAppLink(href)) go(href);
    else if (/^(https?:|mailto:|tel:)/i.test(href)) window.open(href, '_blank', 'noopener,noreferrer');
  };

  return (
    <Modal
      open={notification !== null}
      onClose={onClose}
      title={notification?.title ?? ''}
      footer={
        route ? (
          <button type="button" className="btn btn-primary btn-block" onClick={() => go(route)}>
            Read more
          </button>
        ) : undefined
      }
    >
      {notification && (
        <article className={styles.detail}>
          {notification.preview && <img className={styles.preview} src={notification.preview} alt="" />}
          {/* Delegated link clicks: Enter on a focused link fires this click too. */}
          {/* eslint-disable-next-line jsx-a11y-x/click-events-have-key-events, jsx-a11y-x/no-static-element-interactions -- see above */}
          <div
            className={styles.message}
            onClick={onMessageClick}
            // Sanitised on the server (ammonia) when published, and again here like all server HTML.
            dangerouslySetInnerHTML={{ __html: sanitizeHtml(notification.message) }}
          />
          <p className={styles.detailDate}>{formatShortDate(notification.date, '')}</p>
        </article>
      )}
    </Modal>
  );
}
