import { useEffect, useRef } from 'react';
import { Loader } from '../Loader';
import { PdfPages } from './PdfPages';
import { PdfSearchBar, PdfSearchResults } from './PdfSearchBar';
import { PdfToolbar } from './PdfToolbar';
import { useFitWidth } from './useFitWidth';
import { usePageNavigation } from './usePageNavigation';
import { usePdfDocument } from './usePdfDocument';
import { usePdfSearch } from './usePdfSearch';
import { useZoom } from './useZoom';
import styles from './PdfViewer.module.css';

export interface PdfDocumentViewProps {
  /** The PDF's bytes. */
  blob: Blob;
  /** Download from the top bar; without it the bar has no Download button. */
  onDownload?: () => void;
  /** Called once the pages are laid out: the scroller and each page's box (`data-page` = its number). */
  onPages?: (scroller: HTMLElement, pages: HTMLElement[]) => void;
  /** Sizes the viewer where it is embedded in a page rather than in the full-screen dialog. */
  className?: string;
}

/**
 * The pdf.js viewer itself: pages drawn sharp at the device's pixel density and fitted to the
 * width, pinch or buttons to zoom, page navigation, search with highlights, optional Download.
 * Shown in the app's full-screen dialog (PdfViewer) and in the recipient's page of a shared link.
 */
export default function PdfDocumentView({ blob, onDownload, onPages, className }: PdfDocumentViewProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { doc, sizes, failed } = usePdfDocument(blob);
  const width = useFitWidth(scrollRef);
  const { zoom, setZoom, pinch } = useZoom(scrollRef);
  const pageCount = sizes.length;
  const paging = usePageNavigation(scrollRef, pageCount);
  const search = usePdfSearch(doc, paging.goTo);
  const pagesReady = useRef(onPages);
  useEffect(() => {
    pagesReady.current = onPages;
  });

  useEffect(() => {
    const scroller = scrollRef.current;
    if (!doc || pageCount === 0 || !scroller) return;
    const boxes = paging.pageRefs.current.filter((el): el is HTMLDivElement => el !== null);
    pagesReady.current?.(scroller, boxes);
  }, [doc, pageCount, paging.pageRefs]);

  return (
    <div className={`${styles.viewer} ${className ?? ''}`} data-testid="pdf-viewer" data-pages={pageCount || undefined}>
      <PdfSearchBar
        query={search.query}
        onQueryChange={search.setQuery}
        canFind={Boolean(doc) && Boolean(search.query.trim())}
        onFind={() => void search.run()}
        onDownload={onDownload}
      />
      {search.matches && (
        <PdfSearchResults query={search.query} matches={search.matches} active={search.active} onStep={search.step} />
      )}
      <div
        ref={scrollRef}
        className={styles.pages}
        onScroll={paging.onScroll}
        role="region"
        aria-label="Document pages"
        // Focusable so that arrow keys scroll the pages.
        // eslint-disable-next-line jsx-a11y-x/no-noninteractive-tabindex -- see above
        tabIndex={0}
      >
        {failed && (
          <p className={styles.failed} role="alert">
            {onDownload
              ? 'This document cannot be shown here. Use Download to open it on your device.'
              : 'This document cannot be shown here.'}
          </p>
        )}
        {!failed && !doc && <Loader label="Loading document" />}
        {doc && (
          <PdfPages
            doc={doc}
            sizes={sizes}
            width={width}
            zoom={zoom}
            pinch={pinch}
            root={scrollRef}
            pageRefs={paging.pageRefs}
            texts={search.texts}
            matches={search.matches}
            active={search.active}
          />
        )}
      </div>
      <PdfToolbar
        current={paging.current}
        pageCount={pageCount}
        pageInput={paging.pageInput}
        onPageInput={paging.setPageInput}
        onSubmitPage={paging.submitPageInput}
        goTo={paging.goTo}
        zoom={zoom}
        setZoom={setZoom}
      />
    </div>
  );
}
