import { DocumentActions } from '@/features/documents/components/DocumentActions';
import { SearchPage } from '@/features/search/components/SearchPage';
import type { DocumentMenuProps } from '@/features/search/types';

/**
 * A document result opens the documents feature's action menu. Features do
 * not import each other, so the two meet here.
 */
function SearchDocumentMenu({ document, onClose }: DocumentMenuProps) {
  // The search answer carries each document exactly as the documents lists give it, with its
  // folder for its owner: the move dialog disables that folder and offers the root otherwise.
  return <DocumentActions item={document} onClose={onClose} parent={document?.parent ?? null} />;
}

/** /search */
export default function SearchRoute() {
  return <SearchPage documentMenu={SearchDocumentMenu} />;
}
