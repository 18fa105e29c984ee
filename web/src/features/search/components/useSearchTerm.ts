import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { normalizeTerm } from '../logic/term';
import { paramsWithSection, paramsWithTerm, SECTION_PARAM, termFromParams } from '../logic/url';

/** Typing pauses this long before the term is searched (the server matches prefixes). */
export const SEARCH_DEBOUNCE_MS = 250;

/**
 * The text in the search bar and the term being searched. The searched term
 * lives in the URL (?string, replace navigation), so Home's search box, the
 * browser history and a shared link all land on the same results; the bar
 * writes into it once typing pauses.
 */
export function useSearchTerm() {
  const [params, setParams] = useSearchParams();
  const searched = termFromParams(params);
  const [term, setTermState] = useState(searched);
  // The last ?string this screen wrote, and the one it saw on the previous render.
  const [written, setWritten] = useState(searched);
  const [seen, setSeen] = useState(searched);
  const timer = useRef<number | null>(null);

  if (seen !== searched) {
    // The URL moved. Unless it is our own write arriving, it came from outside
    // (the Search tab, the history): the bar follows it.
    setSeen(searched);
    if (searched !== written) {
      setWritten(searched);
      setTermState(searched);
    }
  }

  const cancelPending = () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => cancelPending, []);

  const write = useCallback(
    (value: string) => {
      const trimmed = normalizeTerm(value);
      setWritten(trimmed);
      setParams((current) => (termFromParams(current) === trimmed ? current : paramsWithTerm(current, trimmed)), {
        replace: true,
      });
    },
    [setParams],
  );

  /** The user typed: search once typing pauses. */
  const setTerm = (value: string) => {
    setTermState(value);
    cancelPending();
    timer.current = window.setTimeout(() => {
      timer.current = null;
      write(value);
    }, SEARCH_DEBOUNCE_MS);
  };

  /** Enter: search now. */
  const submit = () => {
    cancelPending();
    write(term);
  };

  /** The back button: empty bar, no results, no ?string. */
  const clear = () => {
    cancelPending();
    setTermState('');
    write('');
  };

  const section = params.get(SECTION_PARAM);
  const setSection = (value: string) => setParams((current) => paramsWithSection(current, value), { replace: true });

  return { term, searched, setTerm, submit, clear, section, setSection };
}
