/** Search path for a term: /search?string={term}. */
export function searchPath(term: string): string {
  return `/search?${new URLSearchParams({ string: term.trim() }).toString()}`;
}
