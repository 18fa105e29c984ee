import { lazy, Suspense } from 'react';
import { Loader } from '../Loader';
import type { PdfDocumentViewProps } from './PdfDocumentView';
import type { PdfViewerProps } from './PdfViewer';

// pdf.js is large: it is fetched the first time a document is opened, never with the first screen.
const PdfViewerImpl = lazy(() => import('./PdfViewer'));
const PdfDocumentViewImpl = lazy(() => import('./PdfDocumentView'));

/** The in-app PDF viewer, loaded on first use. */
export function PdfViewer(props: PdfViewerProps) {
  return (
    <Suspense fallback={<Loader full label="Loading document" />}>
      <PdfViewerImpl {...props} />
    </Suspense>
  );
}

/** The same viewer embedded in a page (no dialog), loaded on first use. */
export function EmbeddedPdfViewer(props: PdfDocumentViewProps) {
  return (
    <Suspense fallback={<Loader label="Loading document" />}>
      <PdfDocumentViewImpl {...props} />
    </Suspense>
  );
}
