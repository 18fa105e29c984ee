import { DownloadIcon, EyeIcon } from '../icons';
import { Modal } from '../modal/Modal';
import { AvailableOffline } from '../offline/AvailableOffline';
import menuStyles from './ActionMenu.module.css';
import styles from './LibraryDocumentList.module.css';
import type { OpenableDocument } from './useDocumentOpener';

export interface DocumentMenuProps<T extends OpenableDocument> {
  doc: T | null;
  /** A second line under the title (size, languages...). */
  meta?: string;
  onClose: () => void;
  onOpen: (doc: T) => void;
  onDownload: (doc: T) => void;
}

/**
 * The action menu of a read-only document (catalogues, attachments, programme files): files
 * always get Open and Download (spec section 4); these documents carry no other action.
 */
export function DocumentMenu<T extends OpenableDocument>({
  doc,
  meta,
  onClose,
  onOpen,
  onDownload,
}: DocumentMenuProps<T>) {
  return (
    <Modal open={doc !== null} onClose={onClose} title={doc?.title ?? ''}>
      {doc && (
        <>
          {meta && <p className={styles.menuMeta}>{meta}</p>}
          <AvailableOffline
            target={{
              kind: 'file',
              id: doc.url,
              title: doc.title,
              name: doc.name ?? doc.title,
              url: doc.url,
              library: true,
            }}
          />
          <ul className={menuStyles.menu} aria-label="Actions">
            <li>
              <button
                type="button"
                className={menuStyles.menuItem}
                onClick={() => {
                  onClose();
                  onOpen(doc);
                }}
              >
                <EyeIcon /> Open
              </button>
            </li>
            <li>
              <button
                type="button"
                className={menuStyles.menuItem}
                onClick={() => {
                  onClose();
                  onDownload(doc);
                }}
              >
                <DownloadIcon /> Download
              </button>
            </li>
          </ul>
        </>
      )}
    </Modal>
  );
}
