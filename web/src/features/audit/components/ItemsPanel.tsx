import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '@/components/EmptyState';
import { FolderIcon, PdfIcon, SearchIcon, SheetIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { safeServerMessage } from '@/lib/api/errors';
import { toast } from '@/lib/stores/toast';
import { useItemSearch } from '../api/search-items';
import { EMPTY_ITEM_FILTERS, formatWhen, itemsQuery, typeLabel, type Query } from '../logic/filters';
import type { AuditItem, ItemFilters } from '../types';
import { AccessPanel } from './AccessPanel';
import styles from './Audit.module.css';

/** Search every document and folder of every user and of the US set, deleted ones included. */
export function ItemsPanel() {
  const [filters, setFilters] = useState<ItemFilters>(EMPTY_ITEM_FILTERS);
  const [query, setQuery] = useState<Query | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const search = useItemSearch(query);

  useEffect(() => {
    if (search.error) toast.danger(safeServerMessage(search.error) || 'The search failed');
  }, [search.error]);

  const set = (key: keyof ItemFilters) => (event: { target: { value: string } }) =>
    setFilters((f) => ({ ...f, [key]: event.target.value }));

  const items = search.data?.pages.flat() ?? [];

  return (
    <section aria-label="Documents and folders">
      <form
        className={styles.filters}
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setOpen(null);
          setQuery(itemsQuery(filters));
        }}
      >
        <label className={`field ${styles.full} ${styles.wide}`}>
          <span className="field-label">Name</span>
          <input className="input" value={filters.q} onChange={set('q')} placeholder="Part of the name" />
        </label>
        <label className={`field ${styles.full}`}>
          <span className="field-label">Owner e-mail</span>
          <input className="input" type="email" value={filters.owner} onChange={set('owner')} placeholder="Anyone" />
        </label>
        <label className="field">
          <span className="field-label">Type</span>
          <select className="input" value={filters.type} onChange={set('type')}>
            <option value="">Any</option>
            <option value="folder">Folder</option>
            <option value="file">File</option>
            <option value="pdf">PDF</option>
            <option value="xls">XLS</option>
          </select>
        </label>
        <label className="field">
          <span className="field-label">Status</span>
          <select className="input" value={filters.status} onChange={set('status')}>
            <option value="">Any</option>
            <option value="current">Current only</option>
            <option value="deleted">Deleted only</option>
          </select>
        </label>
        <label className={`field ${styles.full}`}>
          <span className="field-label">Dates of</span>
          <select className="input" value={filters.date} onChange={set('date')}>
            <option value="created">Creation</option>
            <option value="changed">Last change</option>
            <option value="deleted">Deletion</option>
          </select>
        </label>
        <label className={`field ${styles.full}`}>
          <span className="field-label">From</span>
          <input className="input" type="date" value={filters.from} onChange={set('from')} />
        </label>
        <label className={`field ${styles.full}`}>
          <span className="field-label">To</span>
          <input className="input" type="date" value={filters.to} onChange={set('to')} />
        </label>
        <div className={styles.formActions}>
          <button type="submit" className="btn btn-primary">
            <SearchIcon size={20} /> Search
          </button>
        </div>
      </form>

      {query === null ? (
        <EmptyState icon={<SearchIcon size={32} />} title="Search every document and folder">
          Of every user and of the US set, deleted ones included.
        </EmptyState>
      ) : search.isPending ? (
        <Loader />
      ) : items.length === 0 ? (
        <EmptyState icon={<SearchIcon size={32} />} title="Nothing matches these filters" />
      ) : (
        <>
          <p className={styles.count} role="status">
            {items.length}
            {search.hasNextPage ? '+' : ''} {items.length === 1 ? 'item' : 'items'}
          </p>
          <ul className={styles.table} aria-label="Documents and folders found">
            <li className={`${styles.row} ${styles.head}`} aria-hidden="true">
              <span>Name</span>
              <span>Type</span>
              <span>Owner</span>
              <span>Created</span>
              <span>Status</span>
              <span />
            </li>
            {items.map((item) => (
              <ItemRow
                key={item.id}
                item={item}
                open={open === item.id}
                onToggle={() => setOpen((o) => (o === item.id ? null : item.id))}
              />
            ))}
          </ul>
          {search.hasNextPage && (
            <button
              type="button"
              className={`btn btn-outline ${styles.more}`}
              onClick={() => void search.fetchNextPage()}
              disabled={search.isFetchingNextPage}
            >
              Load more
            </button>
          )}
        </>
      )}
    </section>
  );
}

function ItemIcon({ item }: { item: AuditItem }) {
  if (item.type === 'folder') return <FolderIcon size={20} />;
  return item.format === 'xls' ? <SheetIcon size={20} /> : <PdfIcon size={20} />;
}

function ItemRow({ item, open, onToggle }: { item: AuditItem; open: boolean; onToggle: () => void }) {
  return (
    <li className={styles.rowWrap} data-testid="audit-item" data-deleted={item.deleted ? 'true' : 'false'}>
      <div className={styles.row}>
        <span className={styles.name}>
          <span className={styles.icon}>
            <ItemIcon item={item} />
          </span>
          <span className={styles.nameText}>{item.name}</span>
        </span>
        <span className={styles.cell} data-label="Type">
          {typeLabel(item)}
          {item.space === 'us' ? ' · US set' : ''}
        </span>
        <span className={styles.cell} data-label="Owner">
          {item.owner ? (
            <>
              {item.owner.name}
              {item.owner.email && <span className={styles.sub}>{item.owner.email}</span>}
            </>
          ) : (
            'Meridian Orthopaedics (US set)'
          )}
        </span>
        <span className={styles.cell} data-label="Created">
          {formatWhen(item.created_at)}
        </span>
        <span className={styles.cell} data-label="Status">
          {item.deleted_at != null ? (
            <span className={styles.deleted}>
              <span className={styles.badge}>Deleted</span> {formatWhen(item.deleted_at)}
              {item.deleted_by && <span className={styles.sub}>by {item.deleted_by.name}</span>}
            </span>
          ) : (
            <span className={styles.current}>Current</span>
          )}
        </span>
        <span className={styles.rowActions}>
          <Link className="btn btn-outline" to={`/documents/history/${item.id}`}>
            History
          </Link>
          <button type="button" className="btn btn-ghost" aria-expanded={open} onClick={onToggle}>
            Who could see it
          </button>
        </span>
      </div>
      {open && <AccessPanel item={item} />}
    </li>
  );
}
