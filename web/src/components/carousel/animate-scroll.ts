/** Carousel scroll animation (ms) and drag speed factor of the spec. */
export const CAROUSEL_SCROLL_MS = 500;
export const CAROUSEL_DRAG_FACTOR = 3;

const easeInOut = (t: number) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2);

/** Scrolls an element horizontally to `left` in CAROUSEL_SCROLL_MS. */
export function animateScroll(element: HTMLElement, left: number, duration = CAROUSEL_SCROLL_MS): void {
  const start = element.scrollLeft;
  const distance = left - start;
  const began = performance.now();
  element.style.scrollSnapType = 'none';
  const step = (now: number) => {
    const progress = Math.min(1, (now - began) / duration);
    element.scrollLeft = start + distance * easeInOut(progress);
    if (progress < 1) requestAnimationFrame(step);
    else element.style.scrollSnapType = '';
  };
  requestAnimationFrame(step);
}
