import { useLayoutEffect, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { usePinchZoom } from './usePinchZoom';

export interface Zoom {
  /** The zoom the pages are drawn at: 1 fits them to the width. */
  zoom: number;
  setZoom: Dispatch<SetStateAction<number>>;
  /** The CSS scale of a pinch under way, 1 when there is none. */
  pinch: number;
}

/** The viewer's zoom, by buttons, pinch or Ctrl + wheel, keeping the reading position when it changes. */
export function useZoom(scrollRef: RefObject<HTMLElement | null>): Zoom {
  const [zoom, setZoom] = useState(1);
  const zoomRef = useRef(zoom);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    const before = zoomRef.current;
    zoomRef.current = zoom;
    if (!el || before === zoom) return;
    el.scrollTop = el.scrollTop * (zoom / before);
    el.scrollLeft = el.scrollLeft * (zoom / before);
  }, [scrollRef, zoom]);

  const pinch = usePinchZoom(scrollRef, zoomRef, setZoom);
  return { zoom, setZoom, pinch };
}
