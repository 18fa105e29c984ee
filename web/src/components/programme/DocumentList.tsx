import { FileTextIcon } from '../icons';
import styles from './programme.module.css';
import type { DocumentFile } from './types';

/** Documents to open or download. */
export function DocumentList({ files }: { files: DocumentFile[] | null | undefined }) {
  if (!files || files.length === 0) return <p className={styles.muted}>No documents yet.</p>;
  return (
    <ul className={styles.documents}>
      {files.map((file) => (
        <li key={file.id}>
          <a className={styles.document} href={file.file} target="_blank" rel="noopener noreferrer" download={file.name}>
            <span className={styles.documentIcon}>
              <FileTextIcon size={20} />
            </span>
            <span className={styles.documentText}>
              <strong>{file.title}</strong>
              {(file.subtitle || file.size) && (
                <span>{[file.subtitle, file.size].filter(Boolean).join(' · ')}</span>
              )}
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}
