import { useCallback, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { withdrawalOfError, withdrawnPathOfUrl } from './withdrawn';
import { hasStatus, isApiError } from '@/lib/api/errors';
import { fetchBinary, saveBlob, type FetchedFile } from '@/lib/files';
import { offlinePins } from '@/lib/offline';
import { toast } from '@/lib/stores/toast';
import { Loader } from '../Loader';
import { PdfViewer } from '../pdf/LazyPdfViewer';
import styles from './LibraryDocumentList.module.css';

/** Spec section 8: a file that cannot be fetched. */
export const FILE_ERROR = 'An error occurred while obtaining the file';

/** What it takes to open a served document: its address (needs the session token) and names. */
export interface OpenableDocument {
  title: string;
  /** File name, used for downloads. */
  name?: string | null;
  /** A same-origin API address such as `/api/library/12/file`. */
  url: string;
}

/** Name a downloaded file is saved under: the file name, else the title, made safe for a file system. */
export function fileNameOf(doc: Pick<OpenableDocument, 'name' | 'title'>): string {
  const base = (doc.name || doc.title || 'document').replace(/[\\/:*?"<>|]+/g, '_').trim() || 'document';
  return /\.[a-z0-9]{2,4}$/i.test(base) ? base : `${base}.pdf`;
}

function isPdf(contentType: string, name: string): boolean {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/pdf') return true;
  if (type && type !== 'application/octet-stream') return false;
  return name.toLowerCase().endsWith('.pdf');
}

/** The file from the server, or the copy kept on the device when the network is gone. */
async function fileOrOfflineCopy(url: string): Promise<FetchedFile> {
  const kept = async () => {
    const copy = await offlinePins().read(url);
    return copy ? { ...copy, fileName: null } : null;
  };
  if (typeof navigator !== 'undefined' && navigator.onLine === false) {
    const copy = await kept();
    if (copy) return copy;
  }
  try {
    return await fetchBinary(url);
  } catch (error) {
    const copy = isApiError(error) && error.status === 0 ? await kept() : null;
    if (!copy) throw error;
    return copy;
  }
}

/**
 * Opens served documents the way a phone can show them: the file is fetched with the session
 * token (a plain link would not send it), PDFs open in the in-app viewer, anything else and
 * Download are handed to the browser as a named file. A 401 follows the app's session-expired
 * logout; any other failure shows the file error.
 */
export function useDocumentOpener(): {
  open: (doc: OpenableDocument) => Promise<void>;
  download: (doc: OpenableDocument) => Promise<void>;
  element: ReactNode;
} {
  const [viewer, setViewer] = useState<{ doc: OpenableDocument; blob: Blob } | null>(null);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();

  const withFile = useCallback(
    async (doc: OpenableDocument, consume: (blob: Blob, type: string, doc: OpenableDocument) => void) => {
      setBusy(true);
      try {
        const file = await fileOrOfflineCopy(doc.url);
        // The served file name completes documents known only by a label (a venue's floor plan).
        const named = doc.name ? doc : { ...doc, name: file.fileName };
        consume(file.blob, file.contentType, named);
      } catch (error) {
        // Withdrawn or expired: the page that says when, why and what replaces it.
        const withdrawal = withdrawalOfError(error);
        const page = withdrawal ? withdrawnPathOfUrl(doc.url) : null;
        if (withdrawal && page) void navigate(page, { state: { withdrawal, title: doc.title } });
        else if (!hasStatus(error, 401)) toast.danger(FILE_ERROR);
      } finally {
        setBusy(false);
      }
    },
    [navigate],
  );

  const open = useCallback(
    (doc: OpenableDocument) =>
      withFile(doc, (blob, type, named) => {
        if (isPdf(type, fileNameOf(named))) setViewer({ doc: named, blob });
        else saveBlob(blob, fileNameOf(named));
      }),
    [withFile],
  );

  const download = useCallback(
    (doc: OpenableDocument) => withFile(doc, (blob, _type, named) => saveBlob(blob, fileNameOf(named))),
    [withFile],
  );

  const element = (
    <>
      {viewer && (
        <PdfViewer
          title={viewer.doc.title}
          blob={viewer.blob}
          onClose={() => setViewer(null)}
          onDownload={() => saveBlob(viewer.blob, fileNameOf(viewer.doc))}
        />
      )}
      {busy && (
        <div className={styles.busy}>
          <Loader label="Opening the document" />
        </div>
      )}
    </>
  );

  return { open, download, element };
}
