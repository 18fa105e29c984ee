/** Texts of the search screen, word for word from the spec (sections 2.6 and 8). */
export const SEARCH_MESSAGES = {
  tooShort: 'Search at least 2 characters',
  failed: 'An error occurred while searching',
  noResultsTitle: 'Sorry, no results found :(',
} as const;

/** Text under the empty-result title. */
export function noResultsText(term: string): string {
  return `We couldn't find any matches for "${term}". Please try with another keyword.`;
}
