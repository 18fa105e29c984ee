import type { Dispatch, SetStateAction } from 'react';
import { MAX_ZOOM, MIN_ZOOM, zoomedIn, zoomedOut } from './zoom';
import styles from './PdfViewer.module.css';

interface PageControlsProps {
  current: number;
  pageCount: number;
  pageInput: string;
  onPageInput: (typed: string) => void;
  onSubmitPage: () => void;
  goTo: (n: number) => void;
}

interface ZoomControlsProps {
  zoom: number;
  setZoom: Dispatch<SetStateAction<number>>;
}

/** The viewer's bottom bar: pages on the left, zoom on the right. */
export function PdfToolbar({ zoom, setZoom, ...paging }: PageControlsProps & ZoomControlsProps) {
  return (
    <div className={styles.toolbar}>
      <PageControls {...paging} />
      <ZoomControls zoom={zoom} setZoom={setZoom} />
    </div>
  );
}

/** Previous page, the page number field and Next page. */
function PageControls({ current, pageCount, pageInput, onPageInput, onSubmitPage, goTo }: PageControlsProps) {
  return (
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
          onSubmitPage();
        }}
      >
        <input
          className={styles.pageInput}
          inputMode="numeric"
          value={pageInput}
          onChange={(e) => onPageInput(e.target.value)}
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
  );
}

/** Zoom out, the zoom in per cent (pressed: back to the width), Zoom in. */
function ZoomControls({ zoom, setZoom }: ZoomControlsProps) {
  return (
    <div className={styles.group}>
      <button
        type="button"
        className={styles.tool}
        onClick={() => setZoom(zoomedOut)}
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
        onClick={() => setZoom(zoomedIn)}
        disabled={zoom >= MAX_ZOOM}
        aria-label="Zoom in"
      >
        +
      </button>
    </div>
  );
}
