import { useCallback, useRef, useState, type RefObject } from 'react';
import { GAP } from './geometry';
import { clampPage, pageAt, pageInputDigits, parsePageInput } from './paging';

export interface PageNavigation {
  /** The page being read (1-based). */
  current: number;
  /** The page number field, as typed. */
  pageInput: string;
  setPageInput: (typed: string) => void;
  /** Where each page's box is, for scrolling to it. */
  pageRefs: RefObject<(HTMLDivElement | null)[]>;
  /** Scrolls to page `n` (kept within the document). */
  goTo: (n: number) => void;
  /** Follows the page being read as the pages scroll. */
  onScroll: () => void;
  /** Goes to the typed page, or puts the current one back in the field when none is typed. */
  submitPageInput: () => void;
}

/** Which page is read, and going to another: by the toolbar, the page number field or a search match. */
export function usePageNavigation(scrollRef: RefObject<HTMLElement | null>, pageCount: number): PageNavigation {
  const [current, setCurrent] = useState(1);
  const [pageInput, setPageInputText] = useState('1');
  const pageRefs = useRef<(HTMLDivElement | null)[]>([]);

  const goTo = useCallback(
    (n: number) => {
      const page = clampPage(n, pageCount);
      const el = pageRefs.current[page - 1];
      const scroller = scrollRef.current;
      if (el && scroller) scroller.scrollTo({ top: el.offsetTop - GAP });
      setCurrent(page);
      setPageInputText(String(page));
    },
    [scrollRef, pageCount],
  );

  const onScroll = () => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const tops = pageRefs.current.map((el) => el?.offsetTop);
    const page = pageAt(tops, scroller.scrollTop, scroller.clientHeight);
    if (page !== current) {
      setCurrent(page);
      setPageInputText(String(page));
    }
  };

  const submitPageInput = () => {
    const n = parsePageInput(pageInput);
    if (n !== null) goTo(n);
    else setPageInputText(String(current));
  };

  const setPageInput = (typed: string) => setPageInputText(pageInputDigits(typed));

  return { current, pageInput, setPageInput, pageRefs, goTo, onScroll, submitPageInput };
}
