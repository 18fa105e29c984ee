import { Modal } from '../modal/Modal';
import PdfDocumentView from './PdfDocumentView';

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
  return (
    <Modal open onClose={onClose} title={title} variant="fullscreen">
      <PdfDocumentView blob={blob} onDownload={onDownload} />
    </Modal>
  );
}
