import { api } from '../api/client';
import { storage, STORAGE_KEYS } from '../storage';

const DEVICE_ID_KEY = 'companion.device-id';
export const APP_VERSION = '1.0.0';

export interface DeviceRegistration {
  push_id: string | null;
  os: string;
  uuid: string;
  app_version: string;
  browser: string;
  device: string;
}

/** This browser's device uuid (the one registered with the server), made once and kept. */
export function deviceId(): string {
  let id = storage.get(DEVICE_ID_KEY);
  if (!id) {
    id =
      typeof crypto !== 'undefined' && 'randomUUID' in crypto
        ? crypto.randomUUID()
        : `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    storage.set(DEVICE_ID_KEY, id);
  }
  return id;
}

/** Reads the operating system and browser from a user-agent string. */
export function describeUserAgent(ua: string): { os: string; browser: string } {
  const os = /android/i.test(ua)
    ? 'Android'
    : /iphone|ipad|ipod/i.test(ua)
      ? 'iOS'
      : /windows/i.test(ua)
        ? 'Windows'
        : /mac os x|macintosh/i.test(ua)
          ? 'macOS'
          : /cros/i.test(ua)
            ? 'ChromeOS'
            : /linux/i.test(ua)
              ? 'Linux'
              : 'Unknown';
  const browser = /edg\//i.test(ua)
    ? 'Edge'
    : /opr\//i.test(ua)
      ? 'Opera'
      : /firefox\//i.test(ua)
        ? 'Firefox'
        : /chrome\/|chromium\//i.test(ua)
          ? 'Chrome'
          : /safari\//i.test(ua)
            ? 'Safari'
            : 'Unknown';
  return { os, browser };
}

export function deviceRegistration(): DeviceRegistration {
  const ua = typeof navigator !== 'undefined' ? navigator.userAgent : '';
  const { os, browser } = describeUserAgent(ua);
  const mobile = /mobi|android|iphone|ipad/i.test(ua);
  return {
    // The push subscription of this device when push is on (see lib/push), re-registered with
    // each new session: sign-out deletes it on the server.
    push_id: storage.get(STORAGE_KEYS.pushSubscription),
    os,
    uuid: deviceId(),
    app_version: APP_VERSION,
    browser,
    device: mobile ? 'web-mobile' : 'web-desktop',
  };
}

/** Tells the server about this browser once after login; a failure is only logged. */
export async function registerDevice(): Promise<void> {
  try {
    await api.post('/users/register-device', deviceRegistration());
  } catch (error) {
    console.warn('Device registration failed', error);
  }
}
