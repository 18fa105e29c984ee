import { useLayoutEffect, useState, type RefObject } from 'react';
import { GAP } from './geometry';

/** The width pages are fitted to: the scroller's, less the gaps at its sides; followed on rotation and resize. */
export function useFitWidth(scrollRef: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth - 2 * GAP);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [scrollRef]);
  return width;
}
