import { EmptyState } from '@/components/EmptyState';
import { Loader } from '@/components/Loader';
import type { DocItem } from '../types';
import styles from './Documents.module.css';
import { FolderIcon } from '@/components/icons';
import { ItemTile } from './ItemTile';

export interface ItemListProps {
  items: DocItem[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  onTap: (item: DocItem) => void;
  onMore: (item: DocItem) => void;
  emptyTitle: string;
  emptyText?: string;
}

export function ItemList({ items, loading, failed, onRetry, onTap, onMore, emptyTitle, emptyText }: ItemListProps) {
  if (loading && !items) return <Loader />;
  if (failed && !items) {
    return (
      <EmptyState icon={<FolderIcon size={32} />} title="The documents could not be loaded">
        <button type="button" className={`btn btn-outline ${styles.retry}`} onClick={onRetry}>
          Try again
        </button>
      </EmptyState>
    );
  }
  if (!items || items.length === 0) {
    return (
      <EmptyState icon={<FolderIcon size={32} />} title={emptyTitle}>
        {emptyText}
      </EmptyState>
    );
  }
  return (
    <ul className={styles.list} aria-label="Documents">
      {items.map((item) => (
        <ItemTile key={`${item.type}-${item.id}`} item={item} onTap={onTap} onMore={onMore} />
      ))}
    </ul>
  );
}
