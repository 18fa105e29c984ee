import { useBadges } from '../stores/badges';
import { api } from './client';
import type { components } from './schema';

/** `GET /badges`: the signed-in user's unread counters. */
export type BadgesResponse = components['schemas']['BadgesView'];

export function getBadges(): Promise<BadgesResponse> {
  return api.get<BadgesResponse>('/badges');
}

/**
 * Loads the counters into the badges store (Home's dot, the menu's What's New
 * count). Called after login, on Home load and after reading; the realtime
 * feed writes into the same store. A counter that received a live count while
 * the request was on its way keeps it: the answer was read before that change.
 * `broadcast_seq` tells which broadcasts the answer includes, so the feed's
 * replay does not count them again. A failure keeps the current counts.
 */
export async function refreshBadges(): Promise<void> {
  try {
    const since = useBadges.getState().pushed;
    const counts = await getBadges();
    useBadges.getState().setCountsUnlessPushed(
      {
        notificationsUnread: counts.notifications,
        updatesUnread: counts.updates,
        sharedNew: counts.shared,
      },
      since,
      // Absent from an older server: the broadcasts already counted stay as they are.
      typeof counts.broadcast_seq === 'number' ? counts.broadcast_seq : undefined,
    );
  } catch (error) {
    console.warn('Badge counts could not be loaded', error);
  }
}
