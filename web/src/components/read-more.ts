import { htmlToText, truncateText } from '@/lib/html';

/** Transfer and hotel texts get 'Read more' above this many characters (spec 9). */
export const READ_MORE_CHARS = 400;

/** Descriptions are clamped to this many lines before 'Read more' (spec 9). */
export const CLAMP_LINES = 3;

/** Whether a rich text is long enough to be shortened behind 'Read more'. */
export function needsReadMore(html: string | null | undefined, threshold = READ_MORE_CHARS): boolean {
  return htmlToText(html).length > threshold;
}

/** The shortened reading of a long rich text. */
export function shortened(html: string | null | undefined, threshold = READ_MORE_CHARS): string {
  return truncateText(htmlToText(html), threshold);
}

/** The toggle's label. */
export function readMoreLabel(expanded: boolean): 'Read more' | 'Read less' {
  return expanded ? 'Read less' : 'Read more';
}
