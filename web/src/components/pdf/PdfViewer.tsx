import { useRef } from 'react';
import { Loader } from '../Loader';
import { Modal } from '../modal/Modal';
import { PdfPages } from './PdfPages';
import { PdfSearchBar, PdfSearchResults } from './PdfSearchBar';
import { PdfToolbar } from './PdfToolbar';
import { useFitWidth } from './useFitWidth';
import { usePageNavigation } from './usePageNavigation';
import { usePdfDocument } from './usePdfDocument';
import { usePdfSearch } from './usePdfSearch';
import { useZoom } from './useZoom';
import styles from './PdfViewer.module.css';

export interface PdfViewerProps {
  title: string;
  /** The PDF's bytes. */
  blob: Blob;
  onClose: () => void;
  onDownload: () => void;
}

/**
 * The in-app PDF viewer (pdf.js): pages drawn sharp at the phone's pixel density and fitted to
 * the width, pinch or buttons to zoom, page navigation, search with highlights, and Download.
 * Loaded only when a document is opened, so the first screen does not carry pdf.js.
 */
export default function PdfViewer({ title, blob, onClose, onDownload }: PdfViewerProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { doc, sizes, failed } = usePdfDocument(blob);
  const width = useFitWidth(scrollRef);
  const { zoom, setZoom, pinch } = useZoom(scrollRef);
  const pageCount = sizes.length;
  const paging = usePageNavigation(scrollRef, pageCount);
  const search = usePdfSearch(doc, paging.goTo);

  return (
    <Modal open onClose={onClose} title={title} variant="fullscreen">
      <div className={styles.viewer} data-testid="pdf-viewer" data-pages={pageCount || undefined}>
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
              This document cannot be shown here. Use Download to open it on your device.
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
    </Modal>
  );
}
