import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist';
// The worker is emitted as a same-origin file (the Content-Security-Policy allows `worker-src 'self'`).
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useState } from 'react';
import type { PageSize } from './geometry';

GlobalWorkerOptions.workerSrc = workerUrl;

export interface PdfDocumentState {
  /** The open document, null while it loads or when it cannot be read. */
  doc: PDFDocumentProxy | null;
  /** The size of each page at scale 1, known once the document is open. */
  sizes: PageSize[];
  /** The bytes are not a PDF pdf.js can read. */
  failed: boolean;
}

/** Opens the PDF in `blob` with pdf.js, and closes it when the blob changes or the viewer goes. */
export function usePdfDocument(blob: Blob): PdfDocumentState {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [sizes, setSizes] = useState<PageSize[]>([]);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    const task = (async () => {
      const data = new Uint8Array(await blob.arrayBuffer());
      // No eval: the app runs under a Content-Security-Policy without it.
      const loading = getDocument({ data, isEvalSupported: false });
      loaded = await loading.promise;
      const pages = await pageSizes(loaded);
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

  return { doc, sizes, failed };
}

async function pageSizes(doc: PDFDocumentProxy): Promise<PageSize[]> {
  const pages: PageSize[] = [];
  for (let n = 1; n <= doc.numPages; n += 1) {
    const vp = (await doc.getPage(n)).getViewport({ scale: 1 });
    pages.push({ width: vp.width, height: vp.height });
  }
  return pages;
}
