import { create } from 'zustand';

/**
 * Unread counters. Filled by `GET /badges` (`refreshBadges`), by the realtime
 * feed's `badge` messages (the single setters) and by the broadcasts that add
 * one each (`countBroadcast`).
 */
export interface BadgeCounts {
  notificationsUnread: number;
  updatesUnread: number;
  sharedNew: number;
}

/** The counters a broadcast adds to: a notification or an app update for everyone. */
export type BroadcastCounter = 'notificationsUnread' | 'updatesUnread';

type Revisions = Record<keyof BadgeCounts, number>;
type Throughs = Record<BroadcastCounter, number>;

interface BadgesState extends BadgeCounts {
  /**
   * How many live counts each counter has received. A `GET /badges` answer
   * read before a live count arrived is older than it: `refreshBadges` keeps
   * the live count then (see `setCountsUnlessPushed`).
   */
  pushed: Revisions;
  /**
   * The broadcast number each count already includes. A broadcast at or below
   * it is in the count (e.g. `GET /badges` answered after its publication and
   * the replay delivered it afterwards), so it is not counted again.
   */
  through: Throughs;
  /**
   * The broadcast numbers added to each count since its last absolute count. A `GET /badges`
   * answer that was on its way meanwhile is applied with those above its `broadcast_seq` added
   * again: the answer is newer than the count, and still misses them.
   */
  counted: Record<BroadcastCounter, number[]>;
  /** `through`, when the server gives it, is the broadcast number `count` includes. */
  setNotificationsUnread: (count: number, through?: number) => void;
  setUpdatesUnread: (count: number, through?: number) => void;
  setSharedNew: (count: number) => void;
  /** Adds broadcast `seq` to the counter, unless its count already includes it. */
  countBroadcast: (counter: BroadcastCounter, seq: number) => void;
  /** Replaces any subset of the counters at once. */
  setCounts: (counts: Partial<BadgeCounts>) => void;
  /**
   * Like `setCounts`, but skips the counters that received a live count since `since` was read.
   * `broadcastSeq` is the broadcast number the counts include: the counters applied take it as
   * `through`, plus one for each broadcast counted above it.
   */
  setCountsUnlessPushed: (counts: Partial<BadgeCounts>, since: Revisions, broadcastSeq?: number) => void;
  reset: () => void;
}

const initial: BadgeCounts = { notificationsUnread: 0, updatesUnread: 0, sharedNew: 0 };
const noRevisions: Revisions = { notificationsUnread: 0, updatesUnread: 0, sharedNew: 0 };
const noThroughs: Throughs = { notificationsUnread: 0, updatesUnread: 0 };
const BROADCAST_COUNTERS: readonly BroadcastCounter[] = ['notificationsUnread', 'updatesUnread'];
const noneCounted = (): Record<BroadcastCounter, number[]> => ({ notificationsUnread: [], updatesUnread: [] });
/** Broadcasts remembered per counter; older ones are below any answer still to come. */
const MAX_COUNTED = 100;

const count = (value: number) => (Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);
const isSeq = (value: number | undefined): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const bump = (pushed: Revisions, key: keyof BadgeCounts): Revisions => ({ ...pushed, [key]: pushed[key] + 1 });

export const useBadges = create<BadgesState>()((set) => {
  const push = (key: keyof BadgeCounts, n: number, through?: number) =>
    set((s) => ({
      [key]: count(n),
      pushed: bump(s.pushed, key),
      // Without `through` (older server) the count alone changes.
      ...(key !== 'sharedNew' && isSeq(through) ? { through: { ...s.through, [key]: through } } : null),
      // An absolute count arrives after the broadcasts it includes: they are in it now.
      ...(key !== 'sharedNew' ? { counted: { ...s.counted, [key]: [] } } : null),
    }));
  const clean = (counts: Partial<BadgeCounts>, keep: (key: keyof BadgeCounts) => boolean) =>
    Object.fromEntries(
      (Object.entries(counts) as [keyof BadgeCounts, number][])
        .filter(([key]) => keep(key))
        .map(([key, value]) => [key, count(value)]),
    ) as Partial<BadgeCounts>;
  return {
    ...initial,
    pushed: { ...noRevisions },
    through: { ...noThroughs },
    counted: noneCounted(),
    setNotificationsUnread: (n, through) => push('notificationsUnread', n, through),
    setUpdatesUnread: (n, through) => push('updatesUnread', n, through),
    setSharedNew: (n) => push('sharedNew', n),
    countBroadcast: (counter, seq) =>
      set((s) =>
        isSeq(seq) && seq > s.through[counter]
          ? {
              [counter]: s[counter] + 1,
              through: { ...s.through, [counter]: seq },
              counted: { ...s.counted, [counter]: [...s.counted[counter], seq].slice(-MAX_COUNTED) },
            }
          : s,
      ),
    setCounts: (counts) => set(clean(counts, () => true)),
    setCountsUnlessPushed: (counts, since, broadcastSeq) =>
      set((s) => {
        const applied = clean(counts, (key) => s.pushed[key] === since[key]);
        if (!isSeq(broadcastSeq)) return applied;
        const through = { ...s.through };
        const counted = { ...s.counted };
        for (const key of BROADCAST_COUNTERS) {
          const answer = applied[key];
          if (answer === undefined) continue;
          // Counted here but not yet in the answer: published after the server read it.
          const later = s.counted[key].filter((seq) => seq > broadcastSeq);
          applied[key] = answer + later.length;
          counted[key] = later;
          // Never lowered: a broadcast counted before the request stays counted once.
          through[key] = Math.max(through[key], broadcastSeq);
        }
        return { ...applied, through, counted };
      }),
    reset: () => set({ ...initial, pushed: { ...noRevisions }, through: { ...noThroughs }, counted: noneCounted() }),
  };
});

/** Unread total of What's New: notifications plus app updates. */
export const selectWhatsNewUnread = (s: BadgeCounts): number => s.notificationsUnread + s.updatesUnread;
