import { create } from 'zustand';
import { api } from '../api/client';
import type { components } from '../api/schema';
import { registerDevice } from '../session/device';
import { storage, STORAGE_KEYS } from '../storage';

/**
 * Web Push on this device: the notification permission state of spec 4 (unknown, yes, no), the
 * browser's push subscription, and its registration with the server as the device's `push_id`.
 * The service worker shows each push and opens its link (`public/push-sw.js`).
 */
export type PushPermission = 'unknown' | 'yes' | 'no';

export type PushKey = components['schemas']['PushKey'];

function storedPermission(): PushPermission {
  const value = storage.get(STORAGE_KEYS.pushPermission);
  return value === 'yes' || value === 'no' ? value : 'unknown';
}

interface PushState {
  permission: PushPermission;
  /** A change is being made (the switch waits). */
  busy: boolean;
}

export const usePush = create<PushState>()(() => ({ permission: storedPermission(), busy: false }));

function setPermission(permission: PushPermission): void {
  storage.set(STORAGE_KEYS.pushPermission, permission);
  usePush.setState({ permission });
}

/** Whether this browser can receive pushes at all (iOS: only the app added to the Home Screen). */
export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'Notification' in window &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    window.isSecureContext
  );
}

/** The server's key as `applicationServerKey` wants it. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function sameKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const current = subscription.options.applicationServerKey;
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
}

/** The subscription as the server takes it: `{endpoint, keys: {p256dh, auth}}`. */
export function subscriptionJson(subscription: PushSubscription): string {
  const { endpoint, keys } = subscription.toJSON();
  return JSON.stringify({ endpoint, keys: { p256dh: keys?.p256dh, auth: keys?.auth } });
}

async function subscribe(): Promise<PushSubscription | null> {
  const key = await api.get<PushKey>('/web-push/key');
  if (!key.enabled) return null;
  const bytes = keyBytes(key.public_key);
  const registration = await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  // A subscription made with an older server key (after a key rotation) is replaced.
  if (subscription && !sameKey(subscription, bytes)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  return subscription ?? registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
}

/**
 * Turns push on for this device: asks the browser (the user's tap on the app's own prompt or on
 * the menu switch comes first), subscribes, and registers the subscription. True when on.
 */
export async function turnPushOn(): Promise<boolean> {
  if (!pushSupported()) return false;
  usePush.setState({ busy: true });
  try {
    const answer = await Notification.requestPermission();
    if (answer !== 'granted') {
      setPermission('no');
      return false;
    }
    const subscription = await subscribe();
    if (!subscription) {
      setPermission('no');
      return false;
    }
    storage.set(STORAGE_KEYS.pushSubscription, subscriptionJson(subscription));
    await registerDevice();
    setPermission('yes');
    return true;
  } catch (error) {
    console.warn('Turning push on failed', error);
    return false;
  } finally {
    usePush.setState({ busy: false });
  }
}

/**
 * On sign-out: the next person to sign in on this browser is asked again instead of inheriting
 * this one's choice, and the browser drops the subscription (the server has already deleted it
 * with the session). A session that merely expires keeps push on for its owner's return.
 */
export async function forgetPushOnThisDevice(): Promise<void> {
  storage.remove(STORAGE_KEYS.pushSubscription);
  storage.remove(STORAGE_KEYS.pushPermission);
  storage.remove(STORAGE_KEYS.pushPrompted);
  usePush.setState({ permission: 'unknown' });
  if (!pushSupported()) return;
  try {
    const registration = await navigator.serviceWorker.getRegistration();
    const subscription = await registration?.pushManager.getSubscription();
    await subscription?.unsubscribe();
  } catch (error) {
    console.warn('Dropping the push subscription failed', error);
  }
}

/** Turns push off for this device: the server forgets its subscription, the browser drops it. */
export async function turnPushOff(): Promise<void> {
  usePush.setState({ busy: true });
  try {
    storage.remove(STORAGE_KEYS.pushSubscription);
    setPermission('no');
    await registerDevice();
    if (pushSupported()) {
      const registration = await navigator.serviceWorker.getRegistration();
      const subscription = await registration?.pushManager.getSubscription();
      await subscription?.unsubscribe();
    }
  } catch (error) {
    console.warn('Turning push off failed', error);
  } finally {
    usePush.setState({ busy: false });
  }
}

/**
 * At start-up, signed in: keeps the server's copy current when push is on (the browser may have
 * renewed the subscription, withdrawn the permission, or the server rotated its key).
 */
export async function refreshPush(): Promise<void> {
  if (storedPermission() !== 'yes' || !pushSupported()) return;
  try {
    if (Notification.permission !== 'granted') {
      storage.remove(STORAGE_KEYS.pushSubscription);
      setPermission('no');
      await registerDevice();
      return;
    }
    const subscription = await subscribe();
    const json = subscription ? subscriptionJson(subscription) : null;
    if (json !== storage.get(STORAGE_KEYS.pushSubscription)) {
      if (json) storage.set(STORAGE_KEYS.pushSubscription, json);
      else storage.remove(STORAGE_KEYS.pushSubscription);
      await registerDevice();
    }
  } catch (error) {
    console.warn('Refreshing the push subscription failed', error);
  }
}

/**
 * Whether the app's own prompt may be offered: supported, never answered, the browser not asked
 * yet, and the app's service worker installed (it receives the pushes).
 */
export async function mayPrompt(): Promise<boolean> {
  if (
    !pushSupported() ||
    storedPermission() !== 'unknown' ||
    storage.get(STORAGE_KEYS.pushPrompted) !== null ||
    Notification.permission !== 'default'
  ) {
    return false;
  }
  try {
    const registration = await navigator.serviceWorker.getRegistration();
    return Boolean(registration?.active);
  } catch {
    return false;
  }
}

/** The prompt was answered or dismissed: it is not offered again. */
export function markPrompted(): void {
  storage.set(STORAGE_KEYS.pushPrompted, String(Date.now()));
}
