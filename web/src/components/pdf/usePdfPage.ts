import type { PDFPageProxy, PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useState, type RefObject } from 'react';
import { canvasRatio } from './geometry';

/** Becomes true once `target` comes within a screen's height of the scroller `root`, and stays so. */
export function useNearScreen(
  target: RefObject<HTMLElement | null>,
  root: RefObject<HTMLElement | null>,
  initiallyNear: boolean,
): boolean {
  const [near, setNear] = useState(initiallyNear);
  useEffect(() => {
    const el = target.current;
    if (!el || near) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { root: root.current, rootMargin: '100% 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [target, near, root]);
  return near;
}

/** Page `number` of the document, fetched from pdf.js once it is `wanted`. */
export function usePdfPage(doc: PDFDocumentProxy, number: number, wanted: boolean): PDFPageProxy | null {
  const [page, setPage] = useState<PDFPageProxy | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let cancelled = false;
    void doc.getPage(number).then((p) => {
      if (!cancelled) setPage(p);
    });
    return () => {
      cancelled = true;
    };
  }, [doc, wanted, number]);
  return page;
}

/** Draws the page on the canvas at `scale`, sharp at the screen's pixel density; drawn again when the scale changes. */
export function usePageCanvas(
  canvasRef: RefObject<HTMLCanvasElement | null>,
  page: PDFPageProxy | null,
  scale: number,
): void {
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!page || !canvas) return;
    const viewport = page.getViewport({ scale });
    const ratio = canvasRatio(window.devicePixelRatio, viewport.width, viewport.height);
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    const task = page.render({
      canvas,
      viewport,
      transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined,
    });
    task.promise.catch(() => undefined);
    return () => task.cancel();
  }, [canvasRef, page, scale]);
}
