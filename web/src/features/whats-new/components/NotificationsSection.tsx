import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { BellIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { refreshBadges } from '@/lib/api/badges';
import { NOTIFICATION_PARAM } from '@/lib/session/links';
import { toast } from '@/lib/stores/toast';
import { formatShortDate } from '@/lib/dates';
import { excerpt } from '@/lib/html';
import { useNotifications } from '../api/get-notifications';
import { whatsNewKeys } from '../api/keys';
import { useOpenedNotification } from '../api/open-notification';
import { MESSAGES, toastText } from '../messages';
import { newestFirst } from '../order';
import { MessagesBlock } from './MessagesBlock';
import { NotificationModal } from './NotificationModal';
import styles from './WhatsNewPage.module.css';

function parseId(raw: string | null): number | null {
  return raw && /^[1-9]\d*$/.test(raw) ? Number(raw) : null;
}

/**
 * The notifications list. The open notification lives in the address
 * (`?notification={id}`), so a notification's own link opens the same modal,
 * also after a login it was kept for (spec 2.1). Opening marks it read.
 */
export function NotificationsSection() {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const { data, isPending, isError } = useNotifications();
  const openId = parseId(params.get(NOTIFICATION_PARAM));
  const opened = useOpenedNotification(openId);

  const setOpenId = useCallback(
    (id: number | null) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (id === null) next.delete(NOTIFICATION_PARAM);
          else next.set(NOTIFICATION_PARAM, String(id));
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  useEffect(() => {
    if (isError) toast.danger(MESSAGES.generic);
  }, [isError]);

  useEffect(() => {
    if (!opened.isError) return;
    toast.danger(toastText(opened.error, MESSAGES.generic));
    setOpenId(null);
  }, [opened.isError, opened.error, setOpenId]);

  const close = useCallback(() => {
    setOpenId(null);
    void queryClient.invalidateQueries({ queryKey: whatsNewKeys.notifications() });
    void refreshBadges();
  }, [queryClient, setOpenId]);

  // What the list already knows shows at once; the server's answer replaces it.
  const shown = openId === null ? null : (opened.data ?? data?.find((n) => n.id === openId) ?? null);

  let body;
  if (isPending) body = <Loader />;
  else if (isError) body = <EmptyState icon={<BellIcon size={32} />} title="Notifications are not available" />;
  else if (data.length === 0)
    body = (
      <EmptyState icon={<BellIcon size={32} />} title="No notifications yet">
        News about products, events and the app will appear here.
      </EmptyState>
    );
  else
    body = (
      <ul className={styles.list}>
        {newestFirst(data).map((n) => (
          <li key={n.id}>
            <button
              type="button"
              className={`${styles.item} ${n.read ? '' : styles.unread}`}
              data-unread={n.read ? 'false' : 'true'}
              data-testid={`notification-${n.id}`}
              onClick={() => setOpenId(n.id)}
            >
              <span className={styles.thumb} aria-hidden="true">
                {n.preview ? <img src={n.preview} alt="" loading="lazy" /> : <BellIcon size={22} />}
              </span>
              <span className={styles.text}>
                <span className={styles.itemTitle}>{n.title}</span>
                <span className={styles.excerpt}>{excerpt(n.message)}</span>
                <span className={styles.meta}>{formatShortDate(n.date, '')}</span>
              </span>
              {!n.read && (
                <span className={styles.dot} data-testid="notification-unread-dot">
                  <span className="visually-hidden">Unread</span>
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    );

  // Notifications first: a notice published a minute ago is never below the survey messages.
  return (
    <>
      {body}
      <MessagesBlock />
      <NotificationModal notification={shown} onClose={close} />
    </>
  );
}
