import { storage, STORAGE_KEYS } from '../storage';
import { isInAppLink } from './destination';

/** The in-app link the app was opened with while logged out, shown after login. */
export const launchLink = {
  get: (): string | null => storage.get(STORAGE_KEYS.launchLink),
  set(link: string): void {
    if (isInAppLink(link)) storage.set(STORAGE_KEYS.launchLink, link);
  },
  clear: (): void => storage.remove(STORAGE_KEYS.launchLink),
};

/** The target of a notification opened while logged out, shown after login. */
export const notificationLink = {
  get: (): string | null => storage.get(STORAGE_KEYS.notificationLink),
  set(link: string): void {
    if (isInAppLink(link)) storage.set(STORAGE_KEYS.notificationLink, link);
  },
  clear: (): void => storage.remove(STORAGE_KEYS.notificationLink),
};

/** Query parameter of What's New that opens one notification. */
export const NOTIFICATION_PARAM = 'notification';

/**
 * The address that opens notification `id` in the app (what a push or an
 * e-mail about it links to): What's New with the notification's modal open.
 */
export function notificationDeepLink(id: number): string {
  return `/new?section=notifications&${NOTIFICATION_PARAM}=${id}`;
}

/** True for an address made by {@link notificationDeepLink}. */
export function isNotificationDeepLink(link: string | null | undefined): boolean {
  if (!isInAppLink(link)) return false;
  const url = new URL(link, 'http://app.invalid');
  const id = url.searchParams.get(NOTIFICATION_PARAM);
  return url.pathname === '/new' && id !== null && /^[1-9]\d*$/.test(id);
}

/**
 * Keeps a link the app was opened with while logged out: a notification's
 * link waits as the pending notification target, anything else as the
 * launch link. Both are followed after login (spec 2.1).
 */
export function keepLinkForLater(link: string): void {
  if (isNotificationDeepLink(link)) notificationLink.set(link);
  else launchLink.set(link);
}

/** Takes (and forgets) the pending notification target, if any. */
export function takeNotificationLink(): string | null {
  const link = notificationLink.get();
  notificationLink.clear();
  return isInAppLink(link) ? link : null;
}
