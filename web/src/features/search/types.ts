/** Shapes of GET /search-new (spec section 3 "Search results", section 7). */

/** The lists a document result comes from: the tabs of the documents screen. */
export type SearchDocumentList = 'my' | 'shared' | 'us';

/**
 * A document result's item exactly as the documents lists give it (the
 * documents feature's item type). Search only reads what is typed here and
 * hands the whole object to the document action menu.
 */
export interface SearchDocument {
  id: string;
  type: 'folder' | 'file';
  title: string;
  name: string;
  actions: string[];
}

/** One result, whatever its type. */
export interface SearchItem {
  id: string;
  name: string;
  subtitle: string | null;
  /** Image address. */
  preview: string | null;
  /** YYYY-MM-DD */
  date: string | null;
  /** Results under `documents` only. */
  document?: SearchDocument;
  /** Results under `documents` only. */
  list?: SearchDocumentList;
}

/** The answer: one key per non-empty result type, each list best match first. */
export type SearchResults = Record<string, SearchItem[] | undefined>;

/**
 * The document action menu the screen opens for a document result. It
 * belongs to the documents feature; the app hands it in (features do not
 * import each other).
 */
export interface DocumentMenuProps {
  /** The document whose menu is open, or null. */
  document: SearchDocument | null;
  onClose: () => void;
}
