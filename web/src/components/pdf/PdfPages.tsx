import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useMemo, useRef, type RefObject } from 'react';
import { fitScale, type PageSize } from './geometry';
import { pageHighlights, type SearchMatch, type TextRun } from './search';
import { useNearScreen, usePageCanvas, usePdfPage } from './usePdfPage';
import styles from './PdfViewer.module.css';

interface PdfPagesProps {
  doc: PDFDocumentProxy;
  sizes: PageSize[];
  /** The width pages are fitted to at zoom 1. */
  width: number;
  zoom: number;
  /** The CSS scale of a pinch under way. */
  pinch: number;
  /** The scroller, within which pages are drawn as they come near. */
  root: RefObject<HTMLDivElement | null>;
  pageRefs: RefObject<(HTMLDivElement | null)[]>;
  texts: TextRun[][] | null;
  matches: SearchMatch[] | null;
  active: number;
}

/** The column of pages, each in a box of its size at the current zoom. */
export function PdfPages({ doc, sizes, width, zoom, pinch, root, pageRefs, texts, matches, active }: PdfPagesProps) {
  return (
    <div
      className={styles.column}
      style={pinch !== 1 ? { transform: `scale(${pinch})`, transformOrigin: 'top center' } : undefined}
    >
      {sizes.map((size, i) => {
        const scale = fitScale(width, size) * zoom;
        return (
          <div
            key={i}
            ref={(el) => {
              pageRefs.current[i] = el;
            }}
            className={styles.page}
            data-page={i + 1}
            style={{ width: size.width * scale, height: size.height * scale }}
          >
            <PdfPage
              doc={doc}
              number={i + 1}
              count={sizes.length}
              scale={scale}
              root={root}
              runs={texts?.[i] ?? null}
              matches={matches}
              active={matches?.[active] ?? null}
            />
          </div>
        );
      })}
    </div>
  );
}

interface PdfPageProps {
  doc: PDFDocumentProxy;
  number: number;
  count: number;
  scale: number;
  root: RefObject<HTMLDivElement | null>;
  runs: TextRun[] | null;
  matches: SearchMatch[] | null;
  active: SearchMatch | null;
}

/** One page: drawn when it comes near the screen, redrawn when the zoom or width changes. */
function PdfPage({ doc, number, count, scale, root, runs, matches, active }: PdfPageProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const near = useNearScreen(boxRef, root, number <= 2);
  const page = usePdfPage(doc, number, near);
  usePageCanvas(canvasRef, page, scale);

  const highlights = useMemo(() => {
    if (!page || !runs || !matches) return [];
    const viewport = page.getViewport({ scale });
    return pageHighlights(
      number,
      runs,
      matches,
      active,
      (rect) => viewport.convertToViewportRectangle(rect) as number[],
    );
  }, [page, runs, matches, active, number, scale]);

  return (
    <div ref={boxRef} className={styles.pageBox}>
      <canvas ref={canvasRef} className={styles.canvas} role="img" aria-label={`Page ${number} of ${count}`} />
      {highlights.map((h) => (
        <span
          key={h.key}
          className={h.isActive ? `${styles.mark} ${styles.markActive}` : styles.mark}
          style={{ left: h.left, top: h.top, width: h.width, height: h.height }}
          data-testid={h.isActive ? 'pdf-match-active' : 'pdf-match'}
        />
      ))}
    </div>
  );
}
