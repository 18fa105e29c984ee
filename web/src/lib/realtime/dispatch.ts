import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { FeedMessage } from './client';

/**
 * Query-key prefixes refreshed by live messages. They are the features' own
 * keys (lib cannot import features): the documents lists and folders
 * (`documentsKeys.all`), the home documents carousel (`homeKeys.documents()`),
 * What's New's lists (`whatsNewKeys.notifications()` / `.updates()`), the external shares'
 * engagement (`sharesKeys.all`). Each
 * feature's key tests check that its queries stay under these prefixes.
 * The Home dot and the menu count follow the `badge` messages instead.
 */
export const LIVE_QUERY_KEYS = {
  documents: [['documents'], ['home', 'documents']],
  /** A document's Shares screen and the Sent view (`sharesKeys.all` of the shares feature). */
  shares: [['shares']],
  notifications: [['whats-new', 'notifications']],
  updates: [['whats-new', 'updates']],
} as const satisfies Record<string, readonly QueryKey[]>;

export interface BadgeSetters {
  setNotificationsUnread(count: number): void;
  setUpdatesUnread(count: number): void;
  setSharedNew(count: number): void;
}

export interface DispatchTargets {
  queryClient: Pick<QueryClient, 'invalidateQueries'>;
  badges: () => BadgeSetters;
  /** Shows an informational toast. */
  notify: (message: string) => void;
  /** Documents were shared, changed, moved or unshared: offline copies follow. */
  documentsChanged?: () => void;
  /** A notification was published to the user (Home announces it). */
  notificationArrived?: (arrival: { id: number; title: string }) => void;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

export const APP_UPDATE_TOAST = 'A new app update is available';

/** The toast text for an `app_update` message: the update's name when it has one. */
export function appUpdateToast(payload: unknown): string {
  const update = record(record(payload).update);
  const name = typeof update.name === 'string' ? update.name.trim() : '';
  return name ? `${APP_UPDATE_TOAST}: ${name}` : APP_UPDATE_TOAST;
}

/** The notification a `notification` message carries (`{notification: {id, title, ...}}`), if readable. */
export function notificationArrival(payload: unknown): { id: number; title: string } | null {
  const notification = record(record(payload).notification);
  const { id, title } = notification;
  return typeof id === 'number' && typeof title === 'string' && title.trim() ? { id, title: title.trim() } : null;
}

/**
 * The toast of a `share_opened` message (`{share, item, title, recipient, at, first}`): only for
 * the first open of a link, as '{recipient} opened "{title}"'.
 */
export function shareOpenedToast(payload: unknown): string | null {
  const { recipient, title, first } = record(payload);
  if (first !== true || typeof recipient !== 'string' || !recipient.trim()) return null;
  const name = typeof title === 'string' && title.trim() ? title.trim() : 'your document';
  return `${recipient.trim()} opened "${name}"`;
}

/** What each kind of feed message does to the screens. Unknown kinds are ignored. */
export function createDispatcher({
  queryClient,
  badges,
  notify,
  documentsChanged,
  notificationArrived,
}: DispatchTargets) {
  const refresh = (keys: readonly QueryKey[]) => {
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };
  return {
    message({ kind, payload }: FeedMessage): void {
      switch (kind) {
        case 'badge': {
          const { name, count } = record(payload);
          if (typeof count !== 'number') return;
          if (name === 'notifications') badges().setNotificationsUnread(count);
          else if (name === 'updates') badges().setUpdatesUnread(count);
          else if (name === 'shared') badges().setSharedNew(count);
          return;
        }
        case 'notification': {
          refresh(LIVE_QUERY_KEYS.notifications);
          const arrival = notificationArrival(payload);
          if (arrival) notificationArrived?.(arrival);
          return;
        }
        case 'app_update':
          refresh(LIVE_QUERY_KEYS.updates);
          notify(appUpdateToast(payload));
          return;
        case 'share_opened': {
          refresh(LIVE_QUERY_KEYS.shares);
          const message = shareOpenedToast(payload);
          if (message) notify(message);
          return;
        }
        case 'share_engagement':
          refresh(LIVE_QUERY_KEYS.shares);
          return;
        case 'shared_arrival':
        case 'shared_change':
          refresh(LIVE_QUERY_KEYS.documents);
          documentsChanged?.();
          return;
        default:
          return;
      }
    },
    /** Everything may be stale: refetch what is on screen, mark the rest stale. */
    reload(): void {
      void queryClient.invalidateQueries();
      documentsChanged?.();
    },
  };
}
