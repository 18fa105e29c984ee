import { LibraryDocumentList } from '../documents/LibraryDocumentList';
import styles from './programme.module.css';
import type { DocumentFile } from './types';

/** Documents of a congress, training, activity or course: each opens its action menu. */
export function DocumentList({ files }: { files: DocumentFile[] | null | undefined }) {
  if (!files || files.length === 0) return <p className={styles.muted}>No documents yet.</p>;
  return <LibraryDocumentList documents={files} />;
}
