import { useEffect, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { clampZoom, pinchScale, touchDistance, wheelZoomed } from './zoom';

/**
 * Pinch to zoom on the scroller: while the fingers move the pages follow them by a CSS scale
 * (returned, 1 when not pinching); on release the zoom is set, so that the pages are redrawn
 * sharp. Ctrl + wheel, a trackpad pinch on desktop, sets the zoom at once.
 */
export function usePinchZoom(
  scrollRef: RefObject<HTMLElement | null>,
  zoomRef: RefObject<number>,
  setZoom: Dispatch<SetStateAction<number>>,
): number {
  const [pinch, setPinch] = useState(1);

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let start: { distance: number; zoom: number } | null = null;
    let scale = 1;
    const onStart = (e: TouchEvent) => {
      if (e.touches.length === 2) {
        start = { distance: touchDistance(e.touches), zoom: zoomRef.current };
        scale = 1;
      }
    };
    const onMove = (e: TouchEvent) => {
      if (!start || e.touches.length !== 2 || start.distance === 0) return;
      e.preventDefault();
      scale = pinchScale(start.zoom, start.distance, touchDistance(e.touches));
      setPinch(scale);
    };
    const onEnd = (e: TouchEvent) => {
      if (!start || e.touches.length >= 2) return;
      const next = clampZoom(start.zoom * scale);
      start = null;
      setPinch(1);
      setZoom(next);
    };
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      setZoom((z) => wheelZoomed(z, e.deltaY));
    };
    el.addEventListener('touchstart', onStart, { passive: true });
    el.addEventListener('touchmove', onMove, { passive: false });
    el.addEventListener('touchend', onEnd);
    el.addEventListener('touchcancel', onEnd);
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      el.removeEventListener('touchstart', onStart);
      el.removeEventListener('touchmove', onMove);
      el.removeEventListener('touchend', onEnd);
      el.removeEventListener('touchcancel', onEnd);
      el.removeEventListener('wheel', onWheel);
    };
  }, [scrollRef, zoomRef, setZoom]);

  return pinch;
}
