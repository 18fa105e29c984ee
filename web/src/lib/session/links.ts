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
