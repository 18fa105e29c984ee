import { create } from 'zustand';

/**
 * - `idle`: not started (logged out).
 * - `connecting`: opening the socket or waiting for `ready`.
 * - `open`: live.
 * - `waiting`: disconnected, retrying after a delay.
 * - `offline`: the browser reports no network; retrying when it comes back.
 */
export type RealtimeStatus = 'idle' | 'connecting' | 'open' | 'waiting' | 'offline';

interface RealtimeState {
  status: RealtimeStatus;
  /** The last feed number received (what the next connection resumes from). */
  lastSeq: number | null;
  /** The last broadcast number received; null until a server with the broadcast stream gave one. */
  lastBroadcastSeq: number | null;
  /** The feed epoch `lastSeq` belongs to. */
  epoch: string | null;
  /** Reconnect attempts since the last successful `ready`. */
  attempts: number;
  reset: () => void;
}

const initial = { status: 'idle' as RealtimeStatus, lastSeq: null, lastBroadcastSeq: null, epoch: null, attempts: 0 };

/** Live state of the realtime channel; written by the client outside React. */
export const useRealtime = create<RealtimeState>()((set) => ({
  ...initial,
  reset: () => set({ ...initial }),
}));

export const selectRealtimeStatus = (s: RealtimeState): RealtimeStatus => s.status;
export const selectLastSeq = (s: RealtimeState): number | null => s.lastSeq;
