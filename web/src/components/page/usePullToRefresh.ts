import { useEffect, useRef, useState } from 'react';

/** How far (px, after resistance) the page must be pulled to refresh. */
export const PULL_THRESHOLD = 64;
const MAX_PULL = 96;
const RESISTANCE = 0.5;

export interface PullState {
  /** Current pull distance in px (0 when idle). */
  pull: number;
  refreshing: boolean;
}

/**
 * Pull-to-refresh on touch screens: pulling down while the page is scrolled
 * to the top runs `onRefresh`. Does nothing when `onRefresh` is undefined.
 */
export function usePullToRefresh(onRefresh?: () => Promise<unknown>): PullState {
  const [pull, setPull] = useState(0);
  const [refreshing, setRefreshing] = useState(false);
  const callback = useRef(onRefresh);
  const busy = useRef(false);
  const enabled = onRefresh !== undefined;

  useEffect(() => {
    callback.current = onRefresh;
  }, [onRefresh]);

  useEffect(() => {
    if (!enabled) return;
    let startY: number | null = null;
    let distance = 0;

    const onStart = (event: TouchEvent) => {
      const touch = event.touches[0];
      if (busy.current || event.touches.length !== 1 || !touch || window.scrollY > 0) return;
      startY = touch.clientY;
      distance = 0;
    };
    const onMove = (event: TouchEvent) => {
      const touch = event.touches[0];
      if (startY === null || !touch) return;
      distance = Math.min(MAX_PULL, Math.max(0, (touch.clientY - startY) * RESISTANCE));
      setPull(distance);
    };
    const onEnd = () => {
      if (startY === null) return;
      startY = null;
      setPull(0);
      const run = callback.current;
      if (distance < PULL_THRESHOLD || !run) return;
      busy.current = true;
      setRefreshing(true);
      run()
        .catch(() => undefined)
        .finally(() => {
          busy.current = false;
          setRefreshing(false);
        });
    };

    window.addEventListener('touchstart', onStart, { passive: true });
    window.addEventListener('touchmove', onMove, { passive: true });
    window.addEventListener('touchend', onEnd);
    window.addEventListener('touchcancel', onEnd);
    return () => {
      window.removeEventListener('touchstart', onStart);
      window.removeEventListener('touchmove', onMove);
      window.removeEventListener('touchend', onEnd);
      window.removeEventListener('touchcancel', onEnd);
    };
  }, [enabled]);

  return { pull, refreshing };
}
