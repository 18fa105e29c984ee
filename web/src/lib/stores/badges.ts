import { create } from 'zustand';

/**
 * Unread counters. Filled by the home load and, later, by the realtime feed
 * (`useBadges.setState` / the setters from outside React).
 */
export interface BadgeCounts {
  notificationsUnread: number;
  updatesUnread: number;
  sharedNew: number;
}

interface BadgesState extends BadgeCounts {
  setNotificationsUnread: (count: number) => void;
  setUpdatesUnread: (count: number) => void;
  setSharedNew: (count: number) => void;
  /** Replaces any subset of the counters at once. */
  setCounts: (counts: Partial<BadgeCounts>) => void;
  reset: () => void;
}

const initial: BadgeCounts = { notificationsUnread: 0, updatesUnread: 0, sharedNew: 0 };

const count = (value: number) => (Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);

export const useBadges = create<BadgesState>()((set) => ({
  ...initial,
  setNotificationsUnread: (n) => set({ notificationsUnread: count(n) }),
  setUpdatesUnread: (n) => set({ updatesUnread: count(n) }),
  setSharedNew: (n) => set({ sharedNew: count(n) }),
  setCounts: (counts) =>
    set(
      Object.fromEntries(
        Object.entries(counts).map(([key, value]) => [key, count(value)]),
      ) as Partial<BadgeCounts>,
    ),
  reset: () => set({ ...initial }),
}));

/** Unread total of What's New: notifications plus app updates. */
export const selectWhatsNewUnread = (s: BadgeCounts): number => s.notificationsUnread + s.updatesUnread;
