import { openLibraryFile } from '@/lib/library';
import { FileTextIcon } from '../icons';
import styles from './LibraryDocumentList.module.css';

/** A library document as the API lists it (catalogues, #ThinkClinical, attachments). */
export interface LibraryDocument {
  id: number;
  type: string;
  title: string;
  name: string;
  subtitle: string;
  size: string;
  languages_in_file: string;
  code_points: string;
  url: string;
  for_internal_use: boolean;
  controlled_release: boolean;
  upon_request: boolean;
}

function flagsOf(doc: LibraryDocument): string[] {
  const flags: string[] = [];
  if (doc.for_internal_use) flags.push('For internal use');
  if (doc.controlled_release) flags.push('Controlled release');
  if (doc.upon_request) flags.push('Upon request');
  return flags;
}

/** Rows of documents; tapping one opens its PDF in a new tab. */
export function LibraryDocumentList({ documents }: { documents: LibraryDocument[] }) {
  return (
    <ul className={styles.list}>
      {documents.map((doc) => (
        <li key={doc.id}>
          <button type="button" className={styles.row} onClick={() => void openLibraryFile(doc.url)}>
            <span className={styles.icon}>
              <FileTextIcon size={22} />
            </span>
            <span className={styles.text}>
              <span className={styles.title}>{doc.title}</span>
              {doc.subtitle && <span className={styles.subtitle}>{doc.subtitle}</span>}
              <span className={styles.meta}>
                {[doc.size, doc.languages_in_file].filter(Boolean).join(' · ')}
              </span>
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
  );
}
