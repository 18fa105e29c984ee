import type { ReactNode } from 'react';
import { Link } from 'react-router';
import {
  CalendarIcon,
  ChevronRightIcon,
  ContactsIcon,
  FileTextIcon,
  GraduationIcon,
  LinkIcon,
  NewsIcon,
  PresentationIcon,
  ProductsIcon,
  SearchIcon,
} from '@/components/icons';
import { formatShortDate } from '@/lib/dates';
import { openTarget } from '../logic/open';
import type { SearchDocument, SearchDocumentList, SearchItem } from '../types';
import styles from './Search.module.css';

/** Stands in for a missing preview image. */
function typeIcon(type: string): ReactNode {
  switch (type) {
    case 'products':
    case 'components':
      return <ProductsIcon />;
    case 'news':
      return <NewsIcon />;
    case 'congresses':
    case 'activities':
      return <CalendarIcon />;
    case 'training':
      return <PresentationIcon />;
    case 'learn':
      return <GraduationIcon />;
    case 'contacts':
      return <ContactsIcon />;
    case 'links':
      return <LinkIcon />;
    case 'documents':
      return <FileTextIcon />;
    default:
      return <SearchIcon />;
  }
}

/** The documents tab a document result comes from, named as on the documents screen. */
const LIST_LABELS: Record<SearchDocumentList, string> = { my: 'My Docs', shared: 'Shared with me', us: 'US' };

function isDocumentList(list: string | null | undefined): list is SearchDocumentList {
  return list === 'my' || list === 'shared' || list === 'us';
}

export interface ResultRowProps {
  type: string;
  item: SearchItem;
  onOpenDocument: (document: SearchDocument) => void;
}

/** One result: preview, name, subtitle and date; opens its screen or, for a document, its action menu. */
export function ResultRow({ type, item, onOpenDocument }: ResultRowProps) {
  const target = openTarget(type, item);
  const listLabel = isDocumentList(item.list) ? LIST_LABELS[item.list] : undefined;
  const content = (
    <>
      {item.preview ? (
        <img className={styles.preview} src={item.preview} alt="" loading="lazy" />
      ) : (
        <span className={`${styles.preview} ${styles.previewIcon}`}>{typeIcon(type)}</span>
      )}
      <span className={styles.text}>
        <strong className={styles.name}>{item.name}</strong>
        {item.subtitle && <span className={styles.subtitle}>{item.subtitle}</span>}
        {(item.date || listLabel) && (
          <span className={styles.meta}>
            {item.date && <time dateTime={item.date}>{formatShortDate(item.date)}</time>}
            {listLabel && <span className={styles.listTag}>{listLabel}</span>}
          </span>
        )}
      </span>
      <ChevronRightIcon size={18} className={styles.chevron} />
    </>
  );

  return (
    <li>
      {target.kind === 'document' ? (
        <button
          type="button"
          className={styles.row}
          onClick={() => onOpenDocument(target.document)}
          aria-haspopup="dialog"
          data-testid="search-result"
          data-type={type}
        >
          {content}
        </button>
      ) : (
        <Link className={styles.row} to={target.path} data-testid="search-result" data-type={type}>
          {content}
        </Link>
      )}
    </li>
  );
}
