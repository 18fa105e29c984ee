/** Moved-item names longer than this are shortened in the move dialog (spec 2.16, section 9). */
export const MOVED_NAME_MAX = 20;

/** 'first 5 characters' + '...' + 'last 5' when over 20 characters, else the name as it is. */
export function truncateMovedName(name: string): string {
  // Code points, so an emoji or accented letter is never cut in half.
  const chars = Array.from(name);
  if (chars.length <= MOVED_NAME_MAX) return name;
  return `${chars.slice(0, 5).join('')}...${chars.slice(-5).join('')}`;
}
