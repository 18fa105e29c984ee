import { DocumentActions } from '@/features/documents/components/DocumentActions';
import type { DocItem } from '@/features/documents/types';
import { SearchPage } from '@/features/search/components/SearchPage';
import type { DocumentMenuProps } from '@/features/search/types';

/**
 * A document result opens the documents feature's action menu. Features do
 * not import each other, so the two meet here.
 */
function SearchDocumentMenu({ document, onClose }: DocumentMenuProps) {
  // The search answer carries each document exactly as the documents lists give it.
  return <DocumentActions item={document as DocItem | null} onClose={onClose} parent={null} />;
}

/** /search */
export default function SearchRoute() {
  return <SearchPage documentMenu={SearchDocumentMenu} />;
}
