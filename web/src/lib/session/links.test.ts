import { beforeEach, describe, expect, it } from 'vitest';
import {
  isNotificationDeepLink,
  keepLinkForLater,
  launchLink,
  notificationDeepLink,
  notificationLink,
  takeNotificationLink,
} from './links';

describe('links kept while logged out', () => {
  beforeEach(() => {
    launchLink.clear();
    notificationLink.clear();
  });

  it('builds and recognises notification links', () => {
    expect(notificationDeepLink(7)).toBe('/new?section=notifications&notification=7');
    expect(isNotificationDeepLink('/new?notification=7')).toBe(true);
    expect(isNotificationDeepLink('/new?section=notifications')).toBe(false);
    expect(isNotificationDeepLink('/new?notification=x')).toBe(false);
    expect(isNotificationDeepLink('/news?notification=7')).toBe(false);
    expect(isNotificationDeepLink('https://evil.example/new?notification=7')).toBe(false);
  });

  it('keeps a notification link as the pending notification target', () => {
    keepLinkForLater(notificationDeepLink(3));
    expect(notificationLink.get()).toBe('/new?section=notifications&notification=3');
    expect(launchLink.get()).toBeNull();
  });

  it('keeps any other link as the launch link', () => {
    keepLinkForLater('/documents');
    expect(launchLink.get()).toBe('/documents');
    expect(notificationLink.get()).toBeNull();
  });

  it('hands the notification target out once', () => {
    keepLinkForLater(notificationDeepLink(3));
    expect(takeNotificationLink()).toBe('/new?section=notifications&notification=3');
    expect(takeNotificationLink()).toBeNull();
  });
});
