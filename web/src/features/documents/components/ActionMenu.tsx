import type { ReactNode } from 'react';
import { Modal } from '@/components/modal/Modal';
import { AvailableOffline, type PinTarget } from '@/components/offline/AvailableOffline';
import { MENU_LABELS, menuActions, type MenuAction } from '../logic/actions';
import { displayName, itemMeta } from '../logic/file';
import type { DocItem, DocType } from '../types';
import menuStyles from '@/components/documents/ActionMenu.module.css';
import styles from './Documents.module.css';
import {
  DownloadIcon,
  HistoryIcon,
  MoveIcon,
  MoveInIcon,
  OpenIcon,
  RenameIcon,
  SaveIcon,
  SendIcon,
  ShareIcon,
  ShareUserIcon,
  TrashIcon,
} from '@/components/icons';
import { ItemLabels } from './ItemTile';

const ICONS: Record<MenuAction, ReactNode> = {
  open: <OpenIcon />,
  rename: <RenameIcon />,
  download: <DownloadIcon />,
  internal_share: <ShareUserIcon />,
  external_share: <SendIcon />,
  save_to_mydocs: <SaveIcon />,
  move_to_mydocs: <MoveInIcon />,
  move: <MoveIcon />,
  delete: <TrashIcon />,
  history: <HistoryIcon />,
  shares: <ShareIcon />,
};

export interface ActionMenuProps {
  item: DocItem | null;
  onClose: () => void;
  onAction: (action: MenuAction, item: DocItem) => void;
  /** The list the item is shown in; folders can be kept offline only when it is known. */
  listType?: DocType;
}

/** What "Available offline" keeps of an item, if it can be kept. */
function pinTarget(item: DocItem, listType: DocType | undefined): PinTarget | null {
  if (item.type === 'file') {
    return item.url ? { kind: 'file', id: item.id, title: displayName(item), name: item.name, url: item.url } : null;
  }
  return listType ? { kind: 'folder', id: item.id, title: displayName(item), type: listType } : null;
}

/** The document action menu: the item's actions in the spec's order (section 4). */
export function ActionMenu({ item, onClose, onAction, listType }: ActionMenuProps) {
  const actions = item ? menuActions(item) : [];
  const pin = item ? pinTarget(item, listType) : null;
  const meta = item ? itemMeta(item) : '';
  return (
    <Modal open={item !== null} onClose={onClose} title={item ? displayName(item) : ''}>
      {item && (
        <>
          {(meta || item.for_internal_use || item.controlled_release || item.upon_request) && (
            <div className={styles.menuHead}>
              {meta && <span className={styles.menuHeadMeta}>{meta}</span>}
              <ItemLabels item={item} />
            </div>
          )}
          {pin && <AvailableOffline target={pin} />}
          <ul className={menuStyles.menu} aria-label="Actions">
            {actions.map((action) => (
              <li key={action}>
                {action === 'history' && actions.length > 1 && <div className={styles.menuSeparator} />}
                <button
                  type="button"
                  className={`${menuStyles.menuItem} ${action === 'delete' ? styles.menuDanger : ''}`}
                  onClick={() => onAction(action, item)}
                >
                  {ICONS[action]}
                  {MENU_LABELS[action]}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </Modal>
  );
}
