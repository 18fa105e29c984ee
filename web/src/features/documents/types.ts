/** Shapes of the documents API (spec section 3 "Document or folder item", section 7). */

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

/** A document or folder of a list. */
export interface DocItem {
  id: string;
  type: 'folder' | 'file';
  title: string;
  name: string;
  label?: string | null;
  /** Bytes. */
  size?: number | null;
  subtitle?: string | null;
  languages_in_file?: string | null;
  code_points?: string | null;
  /** Address of the file's bytes (GET it with the bearer token). */
  url?: string | null;
  /** What this user may do with the item; anything else is refused by the server. */
  actions: string[];
  /** Folders: how many items they hold. */
  children?: number | null;
  for_internal_use: boolean;
  controlled_release: boolean;
  upon_request: boolean;
  unread: boolean;
  owner?: string | null;
  /** ms since epoch */
  updated_at: number;
  /** The folder holding the item; sent to its owner only, none at the root. */
  parent?: string | null;
}

export interface DocList {
  list: DocItem[];
  type: DocType;
}

export interface FolderRef {
  id: string;
  name: string;
}

export interface FolderContents {
  list: DocItem[];
  back: FolderRef | null;
  type: DocType;
  name: string;
}

/** A node of the user's My Docs tree (move dialog). */
export interface FolderNode {
  id: string;
  name: string;
  folders: FolderNode[];
}

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

export interface HistoryEntry {
  /** ms since epoch */
  at: number;
  /** Name of who did it. */
  actor: string;
  actor_email: string;
  /** One of `HistoryAction`; newer servers may send others. */
  action: string;
  detail: string;
  from?: string | null;
  to?: string | null;
}

export interface ItemHistory {
  /** `as_of`: the caller may look at the folder as of a past time (auditors, owners). */
  item: { id: string; name: string; type: 'folder' | 'file'; as_of?: boolean };
  entries: HistoryEntry[];
}

export interface FolderAsOf {
  list: DocItem[];
  name: string;
}
