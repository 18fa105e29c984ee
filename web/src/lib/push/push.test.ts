import { afterEach, describe, expect, it } from 'vitest';
import { deviceRegistration } from '../session/device';
import { storage, STORAGE_KEYS } from '../storage';
import { forgetPushOnThisDevice, keyBytes, mayPrompt, pushSupported, usePush } from './index';

afterEach(() => {
  storage.remove(STORAGE_KEYS.pushSubscription);
});

describe('web push', () => {
  it('decodes the server key as applicationServerKey wants it', () => {
    expect(Array.from(keyBytes('BAEC_-8'))).toEqual([4, 1, 2, 255, 239]);
    expect(keyBytes('AAAA')).toHaveLength(3);
  });

  it('registers the device with its push subscription when push is on, none otherwise', () => {
    expect(deviceRegistration().push_id).toBeNull();
    const subscription = JSON.stringify({
      endpoint: 'https://fcm.googleapis.com/fcm/send/x',
      keys: { p256dh: 'p', auth: 'a' },
    });
    storage.set(STORAGE_KEYS.pushSubscription, subscription);
    expect(deviceRegistration().push_id).toBe(subscription);
  });

  it('offers nothing where the browser cannot receive pushes', async () => {
    expect(pushSupported()).toBe(false);
    expect(await mayPrompt()).toBe(false);
  });

  it("forgets this device's push choice on sign-out, so the next person is asked again", async () => {
    storage.set(STORAGE_KEYS.pushSubscription, '{"endpoint":"https://fcm.googleapis.com/fcm/send/x"}');
    storage.set(STORAGE_KEYS.pushPermission, 'yes');
    storage.set(STORAGE_KEYS.pushPrompted, '1');
    usePush.setState({ permission: 'yes' });
    await forgetPushOnThisDevice();
    expect(storage.get(STORAGE_KEYS.pushSubscription)).toBeNull();
    expect(storage.get(STORAGE_KEYS.pushPermission)).toBeNull();
    expect(storage.get(STORAGE_KEYS.pushPrompted)).toBeNull();
    expect(usePush.getState().permission).toBe('unknown');
    expect(deviceRegistration().push_id).toBeNull();
  });
});
