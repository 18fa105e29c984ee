/** Shapes of the documents API (spec section 3 "Document or folder item", section 7). */

import type { components } from '@/lib/api/schema';
import type { Withdrawal } from '@/components/documents/withdrawn';

type Schemas = components['schemas'];

/** The three lists of the documents screen. */
export type DocType = 'my' | 'shared' | 'us';

export type ItemAction =
  | 'rename'
  | 'delete'
  | 'move'
  | 'internal_share'
  | 'storage_internal_share'
  | 'external_share'
  | 'save_to_mydocs'
  | 'move_to_mydocs';

/**
 * A document or folder of a list. `actions` is what this user may do with the
 * item; anything else is refused by the server.
 */
export type DocItem = Omit<Schemas['ItemView'], 'withdrawn'> & {
  /** Set on a copy of a withdrawn or expired company document: it stays in My Docs, without actions. */
  withdrawn?: Withdrawal | null;
  /** A company document with a new version since the user last opened it. */
  updated?: boolean;
};

export type DocList = Schemas['ItemList'];

export type FolderRef = Schemas['FolderRef'];

export type FolderContents = Schemas['FolderContents'];

/** A node of the user's My Docs tree (move dialog). */
export type FolderNode = Schemas['FolderNode'];

export type HistoryAction =
  | 'created'
  | 'uploaded'
  | 'renamed'
  | 'moved'
  | 'shared'
  | 'shared_externally'
  | 'saved_to_mydocs'
  | 'moved_to_mydocs'
  | 'opened'
  | 'downloaded'
  | 'removed'
  | 'deleted';

/** `action` is one of `HistoryAction`; newer servers may send others. */
export type HistoryEntry = Schemas['HistoryEntry'];

/** `item.as_of`: the caller may look at the folder as of a past time (auditors, owners). */
export type ItemHistory = Schemas['History'];
/** How often an item was read (everyone's reads for auditors and the owner, one's own otherwise). */
export type ItemReads = Schemas['ReadCounts'];

export type FolderAsOf = Schemas['FolderAsOf'];

/** What the user's files in My Docs take of their storage quota. */
export type StorageUsage = Schemas['StorageUsage'];
