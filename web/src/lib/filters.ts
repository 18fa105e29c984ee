/**
 * List filters kept in the URL query (spec 2.18-2.20: `?year=`, course filters): read them,
 * change one, and tell whether any differs from the server's defaults.
 */

/** One choice of a server-given filter. */
export interface FilterOption {
  value: string;
  label: string;
}

/** Options per filter kind, as the server sends them. */
export type FilterOptions = Record<string, FilterOption[] | undefined>;

/** The values of `keys` in the query; absent or empty values are left out. */
export function readFilters(search: URLSearchParams, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const value = search.get(key)?.trim();
    if (value) out[key] = value;
  }
  return out;
}

/** A copy of the query with one filter changed; an empty value removes it. */
export function withFilter(search: URLSearchParams, key: string, value: string | null | undefined): URLSearchParams {
  const next = new URLSearchParams(search);
  if (value) next.set(key, value);
  else next.delete(key);
  return next;
}

/** How many filters are set to something other than their default (`year` defaults to `defaultYear`). */
export function activeFilterCount(filters: Record<string, string>, defaultYear: string): number {
  return Object.entries(filters).filter(([key, value]) => value && !(key === 'year' && value === defaultYear)).length;
}

/** The label of a value among options, or the value itself. */
export function optionLabel(options: FilterOption[] | undefined, value: string | null | undefined): string {
  if (!value) return '';
  return options?.find((o) => o.value === value)?.label ?? value;
}

/** The current year as the lists default to it. */
export function currentYear(now: Date = new Date()): string {
  return String(now.getFullYear());
}
