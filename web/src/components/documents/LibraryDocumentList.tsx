import { useState } from 'react';
import { FileTextIcon } from '../icons';
import { DocumentMenu } from './DocumentMenu';
import styles from './LibraryDocumentList.module.css';
import { useDocumentOpener } from './useDocumentOpener';
import { UPDATED_TAG } from './withdrawn';

/** A library document as the API lists it (catalogues, #ThinkClinical, attachments). */
export interface LibraryDocument {
  id: number;
  type?: string | null;
  title: string;
  name?: string | null;
  subtitle?: string | null;
  size?: string | null;
  languages_in_file?: string | null;
  code_points?: string | null;
  /** Where the signed-in app fetches the file (`/api/library/{id}/file`). */
  url: string;
  for_internal_use?: boolean | null;
  controlled_release?: boolean | null;
  upon_request?: boolean | null;
  /** A new version replaced it (same document, new file). */
  updated?: boolean | null;
}

function flagsOf(doc: LibraryDocument): string[] {
  const flags: string[] = [];
  if (doc.for_internal_use) flags.push('For internal use');
  if (doc.controlled_release) flags.push('Controlled release');
  if (doc.upon_request) flags.push('Upon request');
  return flags;
}

function metaOf(doc: LibraryDocument): string {
  return [doc.size, doc.languages_in_file].filter(Boolean).join(' · ');
}

/** Rows of documents; tapping one opens its action menu (Open in the viewer, Download). */
export function LibraryDocumentList({ documents }: { documents: LibraryDocument[] }) {
  const [menu, setMenu] = useState<LibraryDocument | null>(null);
  const opener = useDocumentOpener();
  return (
    <>
      <ul className={styles.list}>
        {documents.map((doc) => (
          <li key={doc.id}>
            <button type="button" className={styles.row} onClick={() => setMenu(doc)} aria-haspopup="dialog">
              <span className={styles.icon}>
                <FileTextIcon size={22} />
              </span>
              <span className={styles.text}>
                <span className={styles.title}>
                  {doc.title}
                  {doc.updated && (
                    <span className={styles.updated} data-testid="updated-tag">
                      {UPDATED_TAG}
                    </span>
                  )}
                </span>
                {doc.subtitle && <span className={styles.subtitle}>{doc.subtitle}</span>}
                <span className={styles.meta}>{metaOf(doc)}</span>
                {flagsOf(doc).length > 0 && (
                  <span className={styles.flags}>
                    {flagsOf(doc).map((f) => (
                      <span key={f} className={styles.flag}>
                        {f}
                      </span>
                    ))}
                  </span>
                )}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <DocumentMenu
        doc={menu}
        meta={menu ? metaOf(menu) : ''}
        onClose={() => setMenu(null)}
        onOpen={(doc) => void opener.open(doc)}
        onDownload={(doc) => void opener.download(doc)}
      />
      {opener.element}
    </>
  );
}
