import { useState, type ComponentType } from 'react';
import { EmptyState } from '@/components/EmptyState';
import { SearchIcon } from '@/components/icons';
import { Loader } from '@/components/Loader';
import { PageFrame } from '@/components/page/PageFrame';
import { useFailureToast } from '@/lib/hooks/useFailureToast';
import { useSearch } from '../api/search';
import { groupResults, resultCount, sectionChips, selectedSection, visibleGroups } from '../logic/groups';
import { noResultsText, SEARCH_MESSAGES } from '../logic/messages';
import { normalizeTerm, termState } from '../logic/term';
import type { DocumentMenuProps, SearchDocument } from '../types';
import { ResultRow } from './ResultRow';
import styles from './Search.module.css';
import { SearchBar } from './SearchBar';
import { SectionChips } from './SectionChips';
import { useSearchTerm } from './useSearchTerm';

export interface SearchPageProps {
  /** The documents feature's action menu, opened by a document result. */
  documentMenu: ComponentType<DocumentMenuProps>;
}

/**
 * /search (spec 2.6): a search bar that searches as the user types, results
 * grouped by type with section chips, and the empty and too-short messages.
 */
export function SearchPage({ documentMenu: DocumentMenu }: SearchPageProps) {
  const { term, searched, setTerm, submit, clear, section: askedSection, setSection } = useSearchTerm();
  // The keyboard opens by itself only when the screen starts without a term.
  const [startedEmpty] = useState(() => term === '');
  const [openDocument, setOpenDocument] = useState<SearchDocument | null>(null);

  const query = useSearch(searched);
  useFailureToast(query.error, { message: SEARCH_MESSAGES.failed });

  const state = termState(term);
  const groups = groupResults(query.data);
  const section = selectedSection(groups, askedSection);
  const shown = visibleGroups(groups, section);
  // The bar and the searched term agree (no keystroke waiting for its search).
  const settled = normalizeTerm(term) === normalizeTerm(searched);
  const stale = !settled || query.isPlaceholderData;

  const showResults = state === 'ok' && !(settled && query.isError && !query.isFetching) && groups.length > 0;
  let body;
  if (state === 'empty') {
    body = (
      <EmptyState icon={<SearchIcon size={32} />} title="Search the app">
        Products, documents, news, events, training and courses.
      </EmptyState>
    );
  } else if (state === 'short') {
    body = (
      <div role="status">
        <EmptyState icon={<SearchIcon size={32} />} title={SEARCH_MESSAGES.tooShort} />
      </div>
    );
  } else if (settled && query.isError && !query.isFetching) {
    body = (
      <div className={styles.retry}>
        <button type="button" className="btn btn-outline" onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    );
  } else if (showResults) {
    body = (
      <>
        <p className="visually-hidden" role="status">
          {stale ? 'Searching' : `${resultCount(groups)} results`}
        </p>
        <div className={`${styles.groups} ${stale ? styles.stale : ''}`} aria-busy={stale} data-testid="search-results">
          {shown.map((group) => (
            <section key={group.type} className={styles.group} data-testid="search-group" data-type={group.type}>
              <h2 className={styles.groupTitle}>
                {group.label}
                <span className={styles.groupCount}>{group.items.length}</span>
              </h2>
              <ul className={styles.list}>
                {group.items.map((item) => (
                  <ResultRow key={item.id} type={group.type} item={item} onOpenDocument={setOpenDocument} />
                ))}
              </ul>
            </section>
          ))}
        </div>
      </>
    );
  } else if (settled && query.isSuccess && !query.isPlaceholderData) {
    body = (
      <EmptyState icon={<SearchIcon size={32} />} title={SEARCH_MESSAGES.noResultsTitle}>
        {noResultsText(normalizeTerm(searched))}
      </EmptyState>
    );
  } else {
    body = <Loader label="Searching" />;
  }

  const hasSearch = term !== '' || searched !== '';

  const selectSection = (value: string) => {
    setSection(value);
    // A new section starts from its first result.
    window.scrollTo({ top: 0 });
  };

  return (
    <PageFrame title="Search" back={hasSearch ? clear : undefined} info="search">
      <div className={styles.top}>
        <SearchBar value={term} onChange={setTerm} onSubmit={submit} autoFocus={startedEmpty} />
        {showResults && <SectionChips chips={sectionChips(groups)} value={section} onChange={selectSection} />}
      </div>
      <div className={styles.page}>{body}</div>
      <DocumentMenu document={openDocument} onClose={() => setOpenDocument(null)} />
    </PageFrame>
  );
}
