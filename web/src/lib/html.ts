/**
 * Plain-text readings of rich text from the server (descriptions, info texts, messages): for
 * length rules ('Read more'), one-line previews, and the removal of empty paragraphs.
 * Rendering HTML goes through `sanitizeHtml` (./sanitize-html), never through these.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  apos: "'",
  nbsp: ' ',
};

/** Drops empty paragraphs (`<p></p>`, `<p> </p>`, `<p><br></p>`). */
export function removeEmptyParagraphs(html: string): string {
  return html.replace(/<p>(\s|&nbsp;|<br\s*\/?>)*<\/p>/gi, '');
}

/**
 * Text content of an HTML fragment, spaces collapsed: block ends and line breaks become spaces,
 * tags go, the common entities are decoded. The result is text, not markup: never render it as HTML.
 */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  return html
    .replace(/<\/(p|li|h3|h4|blockquote)>|<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first `max` characters of a text, cut at a word and followed by '…' when cut. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** One line of plain text for a list preview: at most `max` characters, '…' included when cut. */
export function excerpt(html: string | null | undefined, max = 140): string {
  const text = htmlToText(html);
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
