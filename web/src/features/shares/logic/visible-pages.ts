/**
 * Which page of the viewer is being read: the one that takes the most of the visible area,
 * as IntersectionObserver reports it. Ties go to the earlier page.
 */

/** What the observer tells of one page element. */
export interface PageSighting {
  target: Element;
  isIntersecting: boolean;
  intersectionRect: { width: number; height: number };
}

export type ObserverConstructor = new (
  callback: (entries: PageSighting[]) => void,
  options: { root: Element | null; threshold: number[] },
) => { observe(target: Element): void; disconnect(): void };

/** The visible area of each page; the page read is the largest. */
export class VisiblePages {
  private readonly areas = new Map<number, number>();

  update(page: number, area: number): void {
    if (area > 0) this.areas.set(page, area);
    else this.areas.delete(page);
  }

  mostVisible(): number | null {
    let best: number | null = null;
    let bestArea = 0;
    for (const [page, area] of this.areas) {
      if (area > bestArea || (area === bestArea && best !== null && page < best)) {
        best = page;
        bestArea = area;
      }
    }
    return best;
  }
}

/** The page number an element stands for (its `data-page`), or null. */
export function pageNumberOf(element: Element): number | null {
  const value = Number(element.getAttribute('data-page'));
  return Number.isInteger(value) && value >= 1 ? value : null;
}

/**
 * Watches the pages inside `root` and calls `onPage` whenever the page read changes.
 * Returns the function that stops watching.
 */
export function observePages(
  root: Element | null,
  pages: readonly Element[],
  onPage: (page: number | null) => void,
  Observer: ObserverConstructor = IntersectionObserver,
): () => void {
  const visible = new VisiblePages();
  let last: number | null = null;
  const observer = new Observer(
    (entries) => {
      for (const entry of entries) {
        const page = pageNumberOf(entry.target);
        if (page === null) continue;
        const { width, height } = entry.intersectionRect;
        visible.update(page, entry.isIntersecting ? width * height : 0);
      }
      const now = visible.mostVisible();
      if (now !== last) {
        last = now;
        onPage(now);
      }
    },
    { root, threshold: [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1] },
  );
  for (const page of pages) observer.observe(page);
  return () => observer.disconnect();
}
