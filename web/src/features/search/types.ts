/** Shapes of GET /search-new (spec section 3 "Search results", section 7). */

import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

/** The lists a document result comes from: the tabs of the documents screen. */
export type SearchDocumentList = 'my' | 'shared' | 'us';

/**
 * A document result's item exactly as the documents lists give it (the
 * documents feature's item type). Search only reads a few of its fields and
 * hands the whole object to the document action menu.
 */
export type SearchDocument = Schemas['ItemView'];

/** One result, whatever its type; `document` and `list` come with results under `documents` only. */
export type SearchItem = Schemas['SearchItem'];

/**
 * The answer: one key per non-empty result type, each list best match first.
 * A type the server adds later is listed too (see `groupResults`).
 */
export type SearchResults = Schemas['SearchResults'];

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
