/**
 * Newest first, whatever order the list came in: by publication time (RFC 3339), then by id
 * (the later published of two at the same instant has the higher id). A date that cannot be
 * read sorts last.
 */
export function newestFirst<T extends { id: number; date: string }>(items: readonly T[]): T[] {
  const time = (item: T) => {
    const t = Date.parse(item.date);
    return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
  };
  return [...items].sort((a, b) => time(b) - time(a) || b.id - a.id);
}
