import { create } from 'zustand';

/** A notification that arrived over the live feed while the app was open. */
export interface Arrival {
  id: number;
  title: string;
  /** When it arrived here (ms since the epoch). */
  at: number;
}

interface ArrivalsState {
  latest: Arrival | null;
  arrived: (arrival: Omit<Arrival, 'at'>) => void;
  reset: () => void;
}

/** The latest live arrival: Home announces it while the rep is there. */
export const useArrivals = create<ArrivalsState>()((set) => ({
  latest: null,
  arrived: (arrival) => set({ latest: { ...arrival, at: Date.now() } }),
  reset: () => set({ latest: null }),
}));
