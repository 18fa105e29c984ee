/** Longest useful-link text shown before it is cut (spec 2.11, 9). */
export const LINK_DISPLAY_LENGTH = 30;

/** A link as the useful-links list shows it: the first 30 characters followed by '...' when longer. */
export function shortenLink(link: string, max = LINK_DISPLAY_LENGTH): string {
  return link.length > max ? `${link.slice(0, max)}...` : link;
}

/** Lines of a clamped description (spec 9). */
export const DESCRIPTION_CLAMP_LINES = 3;

/**
 * The label of a clamped text's toggle: 'Read more' while clamped text overflows,
 * 'Read less' once expanded, nothing when the text fits.
 */
export function readMoreLabel(expanded: boolean, overflowing: boolean): 'Read more' | 'Read less' | null {
  if (expanded) return 'Read less';
  return overflowing ? 'Read more' : null;
}
