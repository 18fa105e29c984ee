import { useCallback, useEffect, useRef } from 'react';
import { sendBeacon } from '../api/public-link';
import { EngagementTracker } from '../logic/tracker';
import { observePages } from '../logic/visible-pages';

/**
 * Reports what the recipient reads while `active`: returns the callback the PDF viewer calls
 * with its pages once they are laid out.
 */
export function useEngagement(token: string, view: string, active: boolean) {
  const tracker = useRef<EngagementTracker | null>(null);
  const unobserve = useRef<(() => void) | null>(null);

  useEffect(() => {
    if (!active) return;
    const current = new EngagementTracker(view, {
      now: () => Date.now(),
      isVisible: () => document.visibilityState === 'visible',
      send: (body) => sendBeacon(token, body),
      setInterval: (run, ms) => window.setInterval(run, ms),
      clearInterval: (handle) => window.clearInterval(handle as number),
    });
    tracker.current = current;
    current.start();
    const onVisibility = () => current.visibilityChanged();
    const onPageHide = () => current.leaving();
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', onPageHide);
      unobserve.current?.();
      unobserve.current = null;
      current.stop();
      tracker.current = null;
    };
  }, [token, view, active]);

  return useCallback((scroller: HTMLElement, pages: HTMLElement[]) => {
    unobserve.current?.();
    unobserve.current =
      typeof IntersectionObserver === 'undefined'
        ? null
        : observePages(scroller, pages, (page) => tracker.current?.showPage(page));
  }, []);
}
