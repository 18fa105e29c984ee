import { useEffect, useMemo } from 'react';
import { Modal } from '@/components/modal/Modal';
import styles from './Documents.module.css';
import { DownloadIcon } from './icons';

export interface PdfViewerProps {
  title: string;
  /** The PDF's bytes. */
  blob: Blob;
  fileName: string;
  onClose: () => void;
  onDownload: () => void;
}

/**
 * Full-screen in-app viewer: the browser's own PDF rendering of a blob
 * address, so the file never leaves the authenticated session.
 */
export function PdfViewer({ title, blob, fileName, onClose, onDownload }: PdfViewerProps) {
  const src = useMemo(
    () => URL.createObjectURL(blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' })),
    [blob],
  );
  useEffect(() => () => URL.revokeObjectURL(src), [src]);

  return (
    <Modal open onClose={onClose} title={title} variant="fullscreen">
      <div className={styles.viewer}>
        <iframe className={styles.viewerFrame} src={src} title={fileName} data-testid="pdf-viewer" />
        <button type="button" className="btn btn-outline" onClick={onDownload}>
          <DownloadIcon size={20} /> Download
        </button>
      </div>
    </Modal>
  );
}
