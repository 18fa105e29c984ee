import { displayName, itemLabels, itemMeta } from '../logic/file';
import { UPDATED_TAG, withdrawalText } from '@/components/documents/withdrawn';
import type { DocItem } from '../types';
import styles from './Documents.module.css';
import { FolderIcon, MoreIcon, PdfIcon, SheetIcon } from '@/components/icons';

const LABEL_CLASS: Record<string, string | undefined> = {
  'For internal use': styles.labelInternal,
  'Controlled release': styles.labelControlled,
  'Upon request': styles.labelRequest,
};

function isSheet(item: DocItem): boolean {
  return /\.xls$/i.test(item.name);
}

export function ItemIcon({ item, size = 22 }: { item: DocItem; size?: number }) {
  if (item.type === 'folder') {
    return (
      <span className={styles.tileIcon}>
        <FolderIcon size={size} />
        {item.unread && <span className={styles.unread} aria-label="Unread" role="img" />}
      </span>
    );
  }
  const sheet = isSheet(item);
  return (
    <span className={`${styles.tileIcon} ${sheet ? styles.tileIconSheet : styles.tileIconFile}`}>
      {sheet ? <SheetIcon size={size} /> : <PdfIcon size={size} />}
      {item.unread && <span className={styles.unread} aria-label="Unread" role="img" />}
    </span>
  );
}

export function ItemLabels({ item }: { item: DocItem }) {
  const labels = itemLabels(item);
  const withdrawn = item.withdrawn ? withdrawalText(item.withdrawn).tag : null;
  // A company document replaced by a new version (its unread dot says the user has not opened it yet).
  const updated = !withdrawn && item.type !== 'folder' && item.updated === true;
  if (labels.length === 0 && !withdrawn && !updated) return null;
  return (
    <span className={styles.labels}>
      {withdrawn && (
        <span className={`${styles.label} ${styles.labelWithdrawn}`} data-testid="withdrawn-tag">
          {withdrawn}
        </span>
      )}
      {updated && (
        <span className={`${styles.label} ${styles.labelUpdated}`} data-testid="updated-tag">
          {UPDATED_TAG}
        </span>
      )}
      {labels.map((label) => (
        <span key={label} className={`${styles.label} ${LABEL_CLASS[label] ?? ''}`}>
          {label}
        </span>
      ))}
    </span>
  );
}

export interface ItemTileProps {
  item: DocItem;
  /** A folder opens; a file shows its action menu (spec section 4). */
  onTap: (item: DocItem) => void;
  onMore: (item: DocItem) => void;
}

export function ItemTile({ item, onTap, onMore }: ItemTileProps) {
  const name = displayName(item);
  const meta = itemMeta(item);
  return (
    <li
      className={`${styles.tile} ${item.withdrawn ? styles.tileWithdrawn : ''}`}
      data-testid="doc-tile"
      data-type={item.type}
      data-withdrawn={item.withdrawn ? item.withdrawn.state : undefined}
    >
      <button type="button" className={styles.tileMain} onClick={() => onTap(item)}>
        <ItemIcon item={item} />
        <span className={styles.tileText}>
          <span className={`${styles.tileTitle} ${item.unread ? styles.tileTitleUnread : ''}`}>{name}</span>
          {meta && <span className={styles.tileMeta}>{meta}</span>}
          <ItemLabels item={item} />
        </span>
      </button>
      <button type="button" className={styles.tileMore} onClick={() => onMore(item)} aria-label={`Actions for ${name}`}>
        <MoreIcon size={22} />
      </button>
    </li>
  );
}
