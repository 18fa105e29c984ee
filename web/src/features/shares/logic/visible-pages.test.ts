import { describe, expect, it } from 'vitest';
import { observePages, pageNumberOf, VisiblePages, type ObserverConstructor, type PageSighting } from './visible-pages';

function page(n: number): Element {
  return { getAttribute: (name: string) => (name === 'data-page' ? String(n) : null) } as unknown as Element;
}

/** An IntersectionObserver the test drives. */
function fakeObserver() {
  const state: { callback?: (entries: PageSighting[]) => void; observed: Element[]; disconnected: boolean } = {
    observed: [],
    disconnected: false,
  };
  const Observer = class {
    constructor(callback: (entries: PageSighting[]) => void) {
      state.callback = callback;
    }
    observe(target: Element) {
      state.observed.push(target);
    }
    disconnect() {
      state.disconnected = true;
    }
  } as unknown as ObserverConstructor;
  const report = (...entries: [Element, number][]) =>
    state.callback?.(
      entries.map(([target, height]) => ({
        target,
        isIntersecting: height > 0,
        intersectionRect: { width: 300, height },
      })),
    );
  return { Observer, state, report };
}

describe('VisiblePages', () => {
  it('picks the page taking the most of the screen, the earlier one on a tie', () => {
    const pages = new VisiblePages();
    expect(pages.mostVisible()).toBeNull();
    pages.update(1, 100);
    pages.update(2, 300);
    expect(pages.mostVisible()).toBe(2);
    pages.update(1, 300);
    expect(pages.mostVisible()).toBe(1);
    pages.update(1, 0);
    pages.update(2, 0);
    expect(pages.mostVisible()).toBeNull();
  });
});

describe('observePages', () => {
  it('tells each change of the page read, once', () => {
    const { Observer, state, report } = fakeObserver();
    const seen: (number | null)[] = [];
    const [p1, p2, p3] = [page(1), page(2), page(3)];
    const stop = observePages(null, [p1, p2, p3], (n) => seen.push(n), Observer);
    expect(state.observed).toHaveLength(3);
    report([p1, 500], [p2, 100]);
    report([p2, 200]);
    report([p1, 100], [p2, 400]);
    report([p3, 50]);
    report([p1, 0], [p2, 0], [p3, 0]);
    expect(seen).toEqual([1, 2, null]);
    stop();
    expect(state.disconnected).toBe(true);
  });

  it('ignores elements that are no page', () => {
    expect(pageNumberOf(page(4))).toBe(4);
    expect(pageNumberOf({ getAttribute: () => 'x' } as unknown as Element)).toBeNull();
    expect(pageNumberOf({ getAttribute: () => '0' } as unknown as Element)).toBeNull();
  });
});
