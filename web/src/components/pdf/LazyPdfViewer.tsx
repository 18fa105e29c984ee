import { lazy, Suspense } from 'react';
import { Loader } from '../Loader';
import type { PdfViewerProps } from './PdfViewer';

// pdf.js is large: it is fetched the first time a document is opened, never with the first screen.
const PdfViewerImpl = lazy(() => import('./PdfViewer'));

/** The in-app PDF viewer, loaded on first use. */
export function PdfViewer(props: PdfViewerProps) {
  return (
    <Suspense fallback={<Loader full label="Loading document" />}>
      <PdfViewerImpl {...props} />
    </Suspense>
  );
}
