/** What the accordion needs to know of a group: its key and how many items it holds. */
export interface GroupSize {
  key: string;
  count: number;
}

/** 'Expand all' / 'Close all' is disabled when no group has children (spec section 4). */
export function canToggleAll(groups: GroupSize[]): boolean {
  return groups.some((g) => g.count > 0);
}

/** True when every group with children is open. */
export function allOpen(open: ReadonlySet<string>, groups: GroupSize[]): boolean {
  const withChildren = groups.filter((g) => g.count > 0);
  return withChildren.length > 0 && withChildren.every((g) => open.has(g.key));
}

export function toggleAllLabel(open: ReadonlySet<string>, groups: GroupSize[]): 'Expand all' | 'Close all' {
  return allOpen(open, groups) ? 'Close all' : 'Expand all';
}

/** The open groups after 'Expand all' / 'Close all'. */
export function toggleAll(open: ReadonlySet<string>, groups: GroupSize[]): Set<string> {
  if (allOpen(open, groups)) return new Set();
  return new Set(groups.filter((g) => g.count > 0).map((g) => g.key));
}

/** The open groups after tapping one. */
export function toggleOne(open: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(open);
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}
