/** Sizes on screen of the viewer's pages and of the canvases they are drawn on. */

/** Space between pages and around them (px). */
export const GAP = 8;

/** Largest canvas drawn for one page (pixels): browsers refuse or crawl beyond ~16 million. */
export const MAX_CANVAS_PIXELS = 12_000_000;

/** A page's size at scale 1, in PDF units. */
export interface PageSize {
  width: number;
  height: number;
}

/** The scale that fits the page to the viewer's width (1 until the width is known). */
export function fitScale(width: number, size: PageSize): number {
  return width > 0 ? width / size.width : 1;
}

/**
 * Canvas pixels per CSS pixel for a page drawn `width` × `height` CSS pixels: the screen's pixel
 * density, lowered where the canvas would grow beyond MAX_CANVAS_PIXELS.
 */
export function canvasRatio(devicePixelRatio: number, width: number, height: number): number {
  const wanted = devicePixelRatio || 1;
  return Math.min(wanted, Math.sqrt(MAX_CANVAS_PIXELS / (width * height)));
}
