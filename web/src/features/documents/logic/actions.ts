import type { DocItem } from '../types';

/** An entry of the action menu. `history` and `shares` are ours; the others are spec section 4's. */
export type MenuAction =
  | 'open'
  | 'rename'
  | 'download'
  | 'internal_share'
  | 'external_share'
  | 'save_to_mydocs'
  | 'move_to_mydocs'
  | 'move'
  | 'delete'
  | 'history'
  | 'shares';

/** Display order of spec section 4; the history and the external shares' engagement come after them. */
export const MENU_ORDER: readonly MenuAction[] = [
  'open',
  'rename',
  'download',
  'internal_share',
  'external_share',
  'save_to_mydocs',
  'move_to_mydocs',
  'move',
  'delete',
  'history',
  'shares',
];

export const MENU_LABELS: Record<MenuAction, string> = {
  open: 'Open',
  rename: 'Rename',
  download: 'Download',
  internal_share: 'Share',
  external_share: 'Share externally',
  save_to_mydocs: 'Save in My Docs',
  move_to_mydocs: 'Move to My Docs',
  move: 'Move',
  delete: 'Delete',
  history: 'History',
  shares: 'Shares',
};

/** Which call a share goes through. */
export type ShareKind = 'folder' | 'internal' | 'storage' | 'external';

/**
 * The menu of an item: files always get Open and Download, folders never;
 * every other entry only when the server lists it in the item's `actions`.
 * `storage_internal_share` is offered as the internal share when present.
 * Folders have no external-share call, so it is never offered for them. `shares` (who opened the
 * links sent outside the company) goes with the right to share a file externally.
 */
export function menuActions(item: Pick<DocItem, 'type' | 'actions'>): MenuAction[] {
  const allowed = new Set(item.actions);
  const isFile = item.type === 'file';
  const has = (action: MenuAction): boolean => {
    switch (action) {
      case 'open':
      case 'download':
        return isFile;
      case 'internal_share':
        return allowed.has('internal_share') || allowed.has('storage_internal_share');
      case 'external_share':
      case 'shares':
        return isFile && allowed.has('external_share');
      case 'history':
        return true;
      default:
        return allowed.has(action);
    }
  };
  return MENU_ORDER.filter(has);
}

/** The call behind an item's share entry. */
export function shareKind(
  item: Pick<DocItem, 'type' | 'actions'>,
  action: 'internal_share' | 'external_share',
): ShareKind {
  if (item.type === 'folder') return 'folder';
  if (action === 'external_share') return 'external';
  return item.actions.includes('storage_internal_share') ? 'storage' : 'internal';
}
