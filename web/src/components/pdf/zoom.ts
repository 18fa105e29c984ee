/**
 * The viewer's zoom: 1 is the page fitted to the width of the viewer, the buttons step by a
 * quarter, a pinch or a Ctrl + wheel follows the fingers; all stay within the limits.
 */

export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 4;
export const ZOOM_STEP = 1.25;

export const clampZoom = (z: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z));

/** One press of Zoom in. */
export const zoomedIn = (z: number) => clampZoom(z * ZOOM_STEP);

/** One press of Zoom out. */
export const zoomedOut = (z: number) => clampZoom(z / ZOOM_STEP);

/** Ctrl + wheel, which is how desktop browsers report a trackpad pinch: up zooms in. */
export const wheelZoomed = (z: number, deltaY: number) => clampZoom(z * Math.exp(-deltaY / 300));

interface Point {
  clientX: number;
  clientY: number;
}

/** Distance between the first two fingers; 0 with fewer than two. */
export function touchDistance(touches: ArrayLike<Point>): number {
  const a = touches[0];
  const b = touches[1];
  return a && b ? Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY) : 0;
}

/**
 * The scale the pages are drawn at while pinching, relative to the zoom when the fingers came
 * down: how far they moved apart, held so that the zoom it ends in stays within the limits.
 */
export function pinchScale(startZoom: number, startDistance: number, distance: number): number {
  return clampZoom((startZoom * distance) / startDistance) / startZoom;
}
