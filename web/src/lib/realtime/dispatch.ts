import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { FeedMessage } from './client';

/**
 * Query-key prefixes refreshed by live messages. They are the features' own
 * keys (lib cannot import features): the documents lists and folders
 * (`documentsKeys.all`), the home documents carousel (`homeKeys.documents()`),
 * What's New's lists (`whatsNewKeys.notifications()` / `.updates()`), the external shares'
 * engagement (`sharesKeys.all`). Each
 * feature's key tests check that its queries stay under these prefixes.
 * The Home dot and the menu count follow the `badge` messages and the broadcasts instead.
 */
export const LIVE_QUERY_KEYS = {
  documents: [['documents'], ['home', 'documents']],
  /**
   * Every list that may hold a library document or a company item: the documents lists, Home,
   * the product screens (attachments, catalogues), the programmes' downloads (congresses,
   * training, courses) and search results. A withdrawal drops the document from all of them.
   */
  library: [['documents'], ['home'], ['products'], ['congresses'], ['training'], ['learn'], ['search']],
  /** `content_changed` by kind: the queries showing that kind of published content. */
  news: [['news'], ['home', 'news'], ['search']],
  products: [['products'], ['home', 'products'], ['search']],
  components: [['products'], ['search']],
  congresses: [['congresses'], ['home', 'congresses'], ['search']],
  activities: [['congresses']],
  training: [['training'], ['search']],
  trainings: [['training'], ['search']],
  courses: [['learn'], ['search']],
  contacts: [['contacts']],
  links: [['useful-links']],
  multimedia: [['multimedia']],
  /** The company's console (publishing, approvals): its own lists follow every change. */
  console: [['console']],
  /** A document's Shares screen and the Sent view (`sharesKeys.all` of the shares feature). */
  shares: [['shares']],
  notifications: [['whats-new', 'notifications']],
  updates: [['whats-new', 'updates']],
} as const satisfies Record<string, readonly QueryKey[]>;

export interface BadgeSetters {
  /** `through`: the broadcast number the count includes, when the `badge` message says. */
  setNotificationsUnread(count: number, through?: number): void;
  setUpdatesUnread(count: number, through?: number): void;
  setSharedNew(count: number): void;
  /** A broadcast notification or app update: one more unless the count already includes `seq`. */
  countBroadcast(counter: 'notificationsUnread' | 'updatesUnread', seq: number): void;
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
  /** A library document was withdrawn or expired: the device purges its copies. */
  libraryWithdrawn?: (withdrawal: LibraryWithdrawal) => void;
}

/** A `library_withdrawn` message: `{id, state, at, reason, replacement, items}`. */
export interface LibraryWithdrawal {
  id: number;
  state: 'withdrawn' | 'expired';
  at: number;
  reason: string;
  replacement: { id: number; title: string; url: string } | null;
  /** The company item of the document and every copy of it. */
  items: string[];
}

/** Reads a `library_withdrawn` payload (also an entry of `GET /library/withdrawn`); null when unreadable. */
export function libraryWithdrawal(payload: unknown): LibraryWithdrawal | null {
  const value = record(payload);
  const id = typeof value.id === 'number' ? value.id : typeof value.id === 'string' ? Number(value.id) : NaN;
  if (!Number.isSafeInteger(id)) return null;
  const replacement = record(value.replacement);
  const replacementId = typeof replacement.id === 'number' ? replacement.id : Number(replacement.id);
  return {
    id,
    state: value.state === 'expired' ? 'expired' : 'withdrawn',
    at: typeof value.at === 'number' ? value.at : typeof value.at === 'string' ? Date.parse(value.at) || 0 : 0,
    reason: typeof value.reason === 'string' ? value.reason : '',
    replacement:
      Number.isSafeInteger(replacementId) && typeof replacement.title === 'string'
        ? {
            id: replacementId,
            title: replacement.title,
            url: typeof replacement.url === 'string' ? replacement.url : `/api/library/${replacementId}/file`,
          }
        : null,
    items: Array.isArray(value.items) ? value.items.filter((i): i is string => typeof i === 'string') : [],
  };
}

const CONTENT_KINDS = {
  news: LIVE_QUERY_KEYS.news,
  products: LIVE_QUERY_KEYS.products,
  components: LIVE_QUERY_KEYS.components,
  congresses: LIVE_QUERY_KEYS.congresses,
  activities: LIVE_QUERY_KEYS.activities,
  training: LIVE_QUERY_KEYS.training,
  trainings: LIVE_QUERY_KEYS.trainings,
  courses: LIVE_QUERY_KEYS.courses,
  contacts: LIVE_QUERY_KEYS.contacts,
  links: LIVE_QUERY_KEYS.links,
  multimedia: LIVE_QUERY_KEYS.multimedia,
} as const;

/** The query-key prefixes a `content_changed {kind}` refreshes; unknown kinds refresh everything published. */
export function contentKeys(kind: unknown): readonly QueryKey[] {
  if (kind === 'library' || kind === 'documents') return LIVE_QUERY_KEYS.library;
  if (typeof kind === 'string' && Object.hasOwn(CONTENT_KINDS, kind))
    return CONTENT_KINDS[kind as keyof typeof CONTENT_KINDS];
  return [...LIVE_QUERY_KEYS.library, ...LIVE_QUERY_KEYS.news, ['contacts'], ['useful-links'], ['multimedia']];
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
  libraryWithdrawn,
}: DispatchTargets) {
  const refresh = (keys: readonly QueryKey[]) => {
    // One invalidation per distinct prefix (kinds share some).
    const seen = new Set<string>();
    for (const queryKey of keys) {
      const id = JSON.stringify(queryKey);
      if (seen.has(id)) continue;
      seen.add(id);
      void queryClient.invalidateQueries({ queryKey });
    }
  };
  const dispatcher = {
    message({ kind, payload }: FeedMessage): void {
      switch (kind) {
        case 'badge': {
          const { name, count, through } = record(payload);
          if (typeof count !== 'number') return;
          // An older server sends no `through`: the count alone is set then.
          const includes: [] | [number] = typeof through === 'number' ? [through] : [];
          if (name === 'notifications') badges().setNotificationsUnread(count, ...includes);
          else if (name === 'updates') badges().setUpdatesUnread(count, ...includes);
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
        case 'library_withdrawn': {
          const withdrawal = libraryWithdrawal(payload);
          if (!withdrawal) return;
          // Purged first (the copies on the device go), the lists follow at once.
          libraryWithdrawn?.(withdrawal);
          refresh(LIVE_QUERY_KEYS.library);
          refresh(LIVE_QUERY_KEYS.notifications);
          return;
        }
        case 'content_changed': {
          const { kind } = record(payload);
          refresh([...contentKeys(kind), ...LIVE_QUERY_KEYS.console]);
          return;
        }
        default:
          return;
      }
    },
    /**
     * A message shared by every user: the effects of a message of the same kind, and the
     * counts it adds to (no `badge` message follows a broadcast).
     */
    broadcast(message: FeedMessage): void {
      if (message.kind === 'notification') badges().countBroadcast('notificationsUnread', message.seq);
      else if (message.kind === 'app_update') badges().countBroadcast('updatesUnread', message.seq);
      dispatcher.message(message);
    },
    /** Everything may be stale: refetch what is on screen, mark the rest stale. */
    reload(): void {
      void queryClient.invalidateQueries();
      documentsChanged?.();
    },
  };
  return dispatcher;
}
