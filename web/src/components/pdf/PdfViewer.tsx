import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist';
// The worker is emitted as a same-origin file (the Content-Security-Policy allows `worker-src 'self'`).
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Loader } from '../Loader';
import { Modal } from '../modal/Modal';
import { DownloadIcon } from '../icons';
import { findMatches, matchRect, MAX_QUERY_LENGTH, type SearchMatch, type TextRun } from './search';
import styles from './PdfViewer.module.css';

GlobalWorkerOptions.workerSrc = workerUrl;

export interface PdfViewerProps {
  title: string;
  /** The PDF's bytes. */
  blob: Blob;
  onClose: () => void;
  onDownload: () => void;
}

const MIN_ZOOM = 0.5;
const MAX_ZOOM = 4;
const ZOOM_STEP = 1.25;
/** Largest canvas drawn for one page (pixels): browsers refuse or crawl beyond ~16 million. */
const MAX_CANVAS_PIXELS = 12_000_000;
/** Space between pages and around them (px). */
const GAP = 8;

const clampZoom = (z: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z));

interface PageSize {
  width: number;
  height: number;
}

/**
 * The in-app PDF viewer (pdf.js): pages drawn sharp at the phone's pixel density and fitted to
 * the width, pinch or buttons to zoom, page navigation, search with highlights, and Download.
 * Loaded only when a document is opened, so the first screen does not carry pdf.js.
 */
export default function PdfViewer({ title, blob, onClose, onDownload }: PdfViewerProps) {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [sizes, setSizes] = useState<PageSize[]>([]);
  const [failed, setFailed] = useState(false);
  const [zoom, setZoom] = useState(1);
  const [pinch, setPinch] = useState(1);
  const [width, setWidth] = useState(0);
  const [current, setCurrent] = useState(1);
  const [pageInput, setPageInput] = useState('1');
  const [query, setQuery] = useState('');
  const [matches, setMatches] = useState<SearchMatch[] | null>(null);
  const [active, setActive] = useState(0);
  const [texts, setTexts] = useState<TextRun[][] | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const pageRefs = useRef<(HTMLDivElement | null)[]>([]);
  const zoomRef = useRef(zoom);

  // Open the document (no eval: the app runs under a Content-Security-Policy without it).
  useEffect(() => {
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    const task = (async () => {
      const data = new Uint8Array(await blob.arrayBuffer());
      const loading = getDocument({ data, isEvalSupported: false });
      loaded = await loading.promise;
      const pages: PageSize[] = [];
      for (let n = 1; n <= loaded.numPages; n += 1) {
        const vp = (await loaded.getPage(n)).getViewport({ scale: 1 });
        pages.push({ width: vp.width, height: vp.height });
      }
      if (cancelled) return;
      setDoc(loaded);
      setSizes(pages);
    })();
    task.catch(() => {
      if (!cancelled) setFailed(true);
    });
    return () => {
      cancelled = true;
      void task.finally(() => loaded?.destroy());
    };
  }, [blob]);

  // Fit pages to the width of the viewer, and follow it (rotation, resize).
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth - 2 * GAP);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // Keep the reading position when the zoom changes.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const before = zoomRef.current;
    zoomRef.current = zoom;
    if (!el || before === zoom) return;
    el.scrollTop = el.scrollTop * (zoom / before);
    el.scrollLeft = el.scrollLeft * (zoom / before);
  }, [zoom]);

  // Pinch to zoom: the pages follow the fingers (CSS scale) and are redrawn sharp on release.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let start: { distance: number; zoom: number } | null = null;
    let scale = 1;
    const distance = (t: TouchList) => {
      const a = t[0];
      const b = t[1];
      return a && b ? Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY) : 0;
    };
    const onStart = (e: TouchEvent) => {
      if (e.touches.length === 2) {
        start = { distance: distance(e.touches), zoom: zoomRef.current };
        scale = 1;
      }
    };
    const onMove = (e: TouchEvent) => {
      if (!start || e.touches.length !== 2 || start.distance === 0) return;
      e.preventDefault();
      scale = clampZoom((start.zoom * distance(e.touches)) / start.distance) / start.zoom;
      setPinch(scale);
    };
    const onEnd = (e: TouchEvent) => {
      if (!start || e.touches.length >= 2) return;
      const next = clampZoom(start.zoom * scale);
      start = null;
      setPinch(1);
      setZoom(next);
    };
    // Ctrl + wheel is how desktop browsers report a trackpad pinch.
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      setZoom((z) => clampZoom(z * Math.exp(-e.deltaY / 300)));
    };
    el.addEventListener('touchstart', onStart, { passive: true });
    el.addEventListener('touchmove', onMove, { passive: false });
    el.addEventListener('touchend', onEnd);
    el.addEventListener('touchcancel', onEnd);
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      el.removeEventListener('touchstart', onStart);
      el.removeEventListener('touchmove', onMove);
      el.removeEventListener('touchend', onEnd);
      el.removeEventListener('touchcancel', onEnd);
      el.removeEventListener('wheel', onWheel);
    };
  }, []);

  const pageCount = sizes.length;

  const goTo = useCallback(
    (n: number) => {
      const page = Math.min(Math.max(1, Math.round(n)), Math.max(pageCount, 1));
      const el = pageRefs.current[page - 1];
      const scroller = scrollRef.current;
      if (el && scroller) scroller.scrollTo({ top: el.offsetTop - GAP });
      setCurrent(page);
      setPageInput(String(page));
    },
    [pageCount],
  );

  const onScroll = () => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const middle = scroller.scrollTop + scroller.clientHeight / 3;
    let page = 1;
    pageRefs.current.forEach((el, i) => {
      if (el && el.offsetTop <= middle) page = i + 1;
    });
    if (page !== current) {
      setCurrent(page);
      setPageInput(String(page));
    }
  };

  const runSearch = async (event: FormEvent) => {
    event.preventDefault();
    if (!doc) return;
    let pages = texts;
    if (!pages) {
      pages = [];
      for (let n = 1; n <= doc.numPages; n += 1) {
        const content = await (await doc.getPage(n)).getTextContent();
        pages.push(
          content.items.flatMap((item) =>
            'str' in item ? [{ str: item.str, transform: item.transform as number[], width: item.width }] : [],
          ),
        );
      }
      setTexts(pages);
    }
    const found = findMatches(pages, query);
    setMatches(found);
    setActive(0);
    if (found[0]) goTo(found[0].page);
  };

  const step = (delta: number) => {
    if (!matches || matches.length === 0) return;
    const next = (active + delta + matches.length) % matches.length;
    setActive(next);
    const match = matches[next];
    if (match) goTo(match.page);
  };

  const fitScale = (size: PageSize) => (width > 0 ? width / size.width : 1);

  return (
    <Modal open onClose={onClose} title={title} variant="fullscreen">
      <div className={styles.viewer} data-testid="pdf-viewer" data-pages={pageCount || undefined}>
        <form className={styles.search} role="search" onSubmit={(e) => void runSearch(e)}>
          <input
            type="search"
            className={styles.searchInput}
            value={query}
            maxLength={MAX_QUERY_LENGTH}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search in document"
            aria-label="Search in document"
            enterKeyHint="search"
          />
          <button type="submit" className={styles.tool} disabled={!doc || !query.trim()}>
            Find
          </button>
          <button
            type="button"
            className={`btn btn-primary ${styles.download}`}
            onClick={onDownload}
            aria-label="Download"
            title="Download"
          >
            <DownloadIcon size={20} />
          </button>
        </form>
        {matches && (
          <div className={styles.results} aria-live="polite">
            {matches.length === 0 ? (
              <span>No matches for "{query.trim()}"</span>
            ) : (
              <>
                <span>
                  {active + 1} of {matches.length}
                </span>
                <button type="button" className={styles.tool} onClick={() => step(-1)} aria-label="Previous match">
                  ‹
                </button>
                <button type="button" className={styles.tool} onClick={() => step(1)} aria-label="Next match">
                  ›
                </button>
              </>
            )}
          </div>
        )}
        <div
          ref={scrollRef}
          className={styles.pages}
          onScroll={onScroll}
          role="region"
          aria-label="Document pages"
          // Focusable so that arrow keys scroll the pages.
          // eslint-disable-next-line jsx-a11y-x/no-noninteractive-tabindex -- see above
          tabIndex={0}
        >
          {failed && (
            <p className={styles.failed} role="alert">
              This document cannot be shown here. Use Download to open it on your device.
            </p>
          )}
          {!failed && !doc && <Loader label="Loading document" />}
          {doc && (
            <div
              className={styles.column}
              style={pinch !== 1 ? { transform: `scale(${pinch})`, transformOrigin: 'top center' } : undefined}
            >
              {sizes.map((size, i) => {
                const scale = fitScale(size) * zoom;
                return (
                  <div
                    key={i}
                    ref={(el) => {
                      pageRefs.current[i] = el;
                    }}
                    className={styles.page}
                    style={{ width: size.width * scale, height: size.height * scale }}
                  >
                    <PdfPage
                      doc={doc}
                      number={i + 1}
                      count={sizes.length}
                      scale={scale}
                      root={scrollRef}
                      runs={texts?.[i] ?? null}
                      matches={matches}
                      active={matches?.[active] ?? null}
                    />
                  </div>
                );
              })}
            </div>
          )}
        </div>
        <div className={styles.toolbar}>
          <div className={styles.group}>
            <button
              type="button"
              className={styles.tool}
              onClick={() => goTo(current - 1)}
              disabled={current <= 1}
              aria-label="Previous page"
            >
              ‹
            </button>
            <form
              className={styles.pageForm}
              onSubmit={(e) => {
                e.preventDefault();
                const n = Number.parseInt(pageInput, 10);
                if (Number.isFinite(n)) goTo(n);
                else setPageInput(String(current));
              }}
            >
              <input
                className={styles.pageInput}
                inputMode="numeric"
                value={pageInput}
                onChange={(e) => setPageInput(e.target.value.replace(/\D/g, '').slice(0, 5))}
                aria-label="Page number"
              />
              <span className={styles.pageCount}>of {pageCount || '–'}</span>
            </form>
            <button
              type="button"
              className={styles.tool}
              onClick={() => goTo(current + 1)}
              disabled={current >= pageCount}
              aria-label="Next page"
            >
              ›
            </button>
          </div>
          <div className={styles.group}>
            <button
              type="button"
              className={styles.tool}
              onClick={() => setZoom((z) => clampZoom(z / ZOOM_STEP))}
              disabled={zoom <= MIN_ZOOM}
              aria-label="Zoom out"
            >
              −
            </button>
            <button type="button" className={styles.zoomLabel} onClick={() => setZoom(1)} aria-label="Fit to width">
              {Math.round(zoom * 100)}%
            </button>
            <button
              type="button"
              className={styles.tool}
              onClick={() => setZoom((z) => clampZoom(z * ZOOM_STEP))}
              disabled={zoom >= MAX_ZOOM}
              aria-label="Zoom in"
            >
              +
            </button>
          </div>
        </div>
      </div>
    </Modal>
  );
}

interface PdfPageProps {
  doc: PDFDocumentProxy;
  number: number;
  count: number;
  scale: number;
  root: React.RefObject<HTMLDivElement | null>;
  runs: TextRun[] | null;
  matches: SearchMatch[] | null;
  active: SearchMatch | null;
}

/** One page: drawn when it comes near the screen, redrawn when the zoom or width changes. */
function PdfPage({ doc, number, count, scale, root, runs, matches, active }: PdfPageProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(number <= 2);
  const [page, setPage] = useState<PDFPageProxy | null>(null);

  useEffect(() => {
    const el = boxRef.current;
    if (!el || near) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { root: root.current, rootMargin: '100% 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near, root]);

  useEffect(() => {
    if (!near) return;
    let cancelled = false;
    void doc.getPage(number).then((p) => {
      if (!cancelled) setPage(p);
    });
    return () => {
      cancelled = true;
    };
  }, [doc, near, number]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!page || !canvas) return;
    const viewport = page.getViewport({ scale });
    const wanted = window.devicePixelRatio || 1;
    const ratio = Math.min(wanted, Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)));
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    const task = page.render({
      canvas,
      viewport,
      transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined,
    });
    task.promise.catch(() => undefined);
    return () => task.cancel();
  }, [page, scale]);

  const highlights = useMemo(() => {
    if (!page || !runs || !matches) return [];
    const viewport = page.getViewport({ scale });
    return matches
      .filter((m) => m.page === number)
      .flatMap((m) => {
        const run = runs[m.run];
        if (!run) return [];
        const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = viewport.convertToViewportRectangle(matchRect(run, m)) as number[];
        return [
          {
            key: `${m.run}-${m.start}`,
            isActive: m === active,
            left: Math.min(x1, x2),
            top: Math.min(y1, y2),
            width: Math.abs(x2 - x1),
            height: Math.abs(y2 - y1),
          },
        ];
      });
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
