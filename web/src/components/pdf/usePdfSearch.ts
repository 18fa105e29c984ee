import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useState } from 'react';
import { findMatches, stepMatch, toTextRuns, type SearchMatch, type TextRun } from './search';

export interface PdfSearch {
  query: string;
  setQuery: (query: string) => void;
  /** The matches of the last search, null before the first. */
  matches: SearchMatch[] | null;
  /** Index of the match shown. */
  active: number;
  /** Each page's runs of text, read at the first search. */
  texts: TextRun[][] | null;
  /** Searches the document and goes to the first match. */
  run: () => Promise<void>;
  /** Goes to the next (1) or previous (-1) match. */
  step: (delta: number) => void;
}

/** Search in the document: the pages' text is read once, at the first search; `goTo` shows a match's page. */
export function usePdfSearch(doc: PDFDocumentProxy | null, goTo: (page: number) => void): PdfSearch {
  const [query, setQuery] = useState('');
  const [matches, setMatches] = useState<SearchMatch[] | null>(null);
  const [active, setActive] = useState(0);
  const [texts, setTexts] = useState<TextRun[][] | null>(null);

  const run = async () => {
    if (!doc) return;
    let pages = texts;
    if (!pages) {
      pages = await readTexts(doc);
      setTexts(pages);
    }
    const found = findMatches(pages, query);
    setMatches(found);
    setActive(0);
    if (found[0]) goTo(found[0].page);
  };

  const step = (delta: number) => {
    if (!matches || matches.length === 0) return;
    const next = stepMatch(active, delta, matches.length);
    setActive(next);
    const match = matches[next];
    if (match) goTo(match.page);
  };

  return { query, setQuery, matches, active, texts, run, step };
}

async function readTexts(doc: PDFDocumentProxy): Promise<TextRun[][]> {
  const pages: TextRun[][] = [];
  for (let n = 1; n <= doc.numPages; n += 1) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(toTextRuns(content.items));
  }
  return pages;
}
