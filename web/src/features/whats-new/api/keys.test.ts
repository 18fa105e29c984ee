import { describe, expect, it } from 'vitest';
import { LIVE_QUERY_KEYS } from '@/lib/realtime/dispatch';
import { notificationsQuery } from './get-notifications';
import { updatesQuery } from './get-updates';

const startsWith = (key: readonly unknown[], prefix: readonly unknown[]) => prefix.every((part, i) => key[i] === part);

describe("What's New query keys", () => {
  it('keep the lists under the prefixes the realtime feed refreshes', () => {
    expect(LIVE_QUERY_KEYS.notifications.some((p) => startsWith(notificationsQuery().queryKey, p))).toBe(true);
    expect(LIVE_QUERY_KEYS.updates.some((p) => startsWith(updatesQuery().queryKey, p))).toBe(true);
  });
});
