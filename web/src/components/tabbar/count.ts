/** A count as a badge shows it: at most 99+. */
export function countLabel(count: number): string {
  return count > 99 ? '99+' : String(count);
}
