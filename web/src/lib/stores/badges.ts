import { create } from 'zustand';

/**
 * Unread counters. Filled by `GET /badges` (`refreshBadges`) and by the
 * realtime feed's `badge` messages (the single setters).
 */
export interface BadgeCounts {
  notificationsUnread: number;
  updatesUnread: number;
  sharedNew: number;
}

type Revisions = Record<keyof BadgeCounts, number>;

interface BadgesState extends BadgeCounts {
  /**
   * How many live counts each counter has received. A `GET /badges` answer
   * read before a live count arrived is older than it: `refreshBadges` keeps
   * the live count then (see `setCountsUnlessPushed`).
   */
  pushed: Revisions;
  setNotificationsUnread: (count: number) => void;
  setUpdatesUnread: (count: number) => void;
  setSharedNew: (count: number) => void;
  /** Replaces any subset of the counters at once. */
  setCounts: (counts: Partial<BadgeCounts>) => void;
  /** Like `setCounts`, but skips the counters that received a live count since `since` was read. */
  setCountsUnlessPushed: (counts: Partial<BadgeCounts>, since: Revisions) => void;
  reset: () => void;
}

const initial: BadgeCounts = { notificationsUnread: 0, updatesUnread: 0, sharedNew: 0 };
const noRevisions: Revisions = { notificationsUnread: 0, updatesUnread: 0, sharedNew: 0 };

const count = (value: number) => (Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);

export const useBadges = create<BadgesState>()((set) => {
  const push = (key: keyof BadgeCounts, n: number) =>
    set((s) => ({ [key]: count(n), pushed: { ...s.pushed, [key]: s.pushed[key] + 1 } }));
  const clean = (counts: Partial<BadgeCounts>, keep: (key: keyof BadgeCounts) => boolean) =>
    Object.fromEntries(
      (Object.entries(counts) as [keyof BadgeCounts, number][])
        .filter(([key]) => keep(key))
        .map(([key, value]) => [key, count(value)]),
    ) as Partial<BadgeCounts>;
  return {
    ...initial,
    pushed: { ...noRevisions },
    setNotificationsUnread: (n) => push('notificationsUnread', n),
    setUpdatesUnread: (n) => push('updatesUnread', n),
    setSharedNew: (n) => push('sharedNew', n),
    setCounts: (counts) => set(clean(counts, () => true)),
    setCountsUnlessPushed: (counts, since) => set((s) => clean(counts, (key) => s.pushed[key] === since[key])),
    reset: () => set({ ...initial, pushed: { ...noRevisions } }),
  };
});

/** Unread total of What's New: notifications plus app updates. */
export const selectWhatsNewUnread = (s: BadgeCounts): number => s.notificationsUnread + s.updatesUnread;
