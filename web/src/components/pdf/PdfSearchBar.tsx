import { DownloadIcon } from '../icons';
import { MAX_QUERY_LENGTH, type SearchMatch } from './search';
import styles from './PdfViewer.module.css';

interface PdfSearchBarProps {
  query: string;
  onQueryChange: (query: string) => void;
  /** Find is offered once the document is open and something is typed. */
  canFind: boolean;
  onFind: () => void;
  /** Without it there is no Download button (a shared link whose sender allowed viewing only). */
  onDownload?: () => void;
}

/** The viewer's top bar: search in the document, and Download. */
export function PdfSearchBar({ query, onQueryChange, canFind, onFind, onDownload }: PdfSearchBarProps) {
  return (
    <form
      className={styles.search}
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onFind();
      }}
    >
      <input
        type="search"
        className={styles.searchInput}
        value={query}
        maxLength={MAX_QUERY_LENGTH}
        onChange={(e) => onQueryChange(e.target.value)}
        placeholder="Search in document"
        aria-label="Search in document"
        enterKeyHint="search"
      />
      <button type="submit" className={styles.tool} disabled={!canFind}>
        Find
      </button>
      {onDownload && (
        <button
          type="button"
          className={`btn btn-primary ${styles.download}`}
          onClick={onDownload}
          aria-label="Download"
          title="Download"
        >
          <DownloadIcon size={20} />
        </button>
      )}
    </form>
  );
}

interface PdfSearchResultsProps {
  query: string;
  matches: SearchMatch[];
  active: number;
  onStep: (delta: number) => void;
}

/** Under the search bar after a search: which match is shown of how many, and the arrows between them. */
export function PdfSearchResults({ query, matches, active, onStep }: PdfSearchResultsProps) {
  return (
    <div className={styles.results} aria-live="polite">
      {matches.length === 0 ? (
        <span>No matches for "{query.trim()}"</span>
      ) : (
        <>
          <span>
            {active + 1} of {matches.length}
          </span>
          <button type="button" className={styles.tool} onClick={() => onStep(-1)} aria-label="Previous match">
            ‹
          </button>
          <button type="button" className={styles.tool} onClick={() => onStep(1)} aria-label="Next match">
            ›
          </button>
        </>
      )}
    </div>
  );
}
