import DOMPurify, { type Config, type DOMPurify as Purifier } from 'dompurify';
import { removeEmptyParagraphs } from './html';

/**
 * The one way server HTML reaches the page (RichText, the notification message): DOMPurify with an allow-list of simple
 * formatting tags and safe links. Kept out of `./html` so that only screens rendering rich text
 * load DOMPurify.
 */

/**
 * Formatting the app shows (the server's own lists for catalogue texts and notifications, plus
 * span); any other element is unwrapped and keeps its text.
 */
export const ALLOWED_TAGS = [
  'p',
  'strong',
  'b',
  'em',
  'i',
  'u',
  'ul',
  'ol',
  'li',
  'a',
  'h3',
  'h4',
  'br',
  'span',
  'blockquote',
];

/**
 * Link targets kept: http(s), mail, telephone and paths on this site. A path must not start with
 * `//` or `/\` (browsers read both as another host); DOMPurify tests the value with its
 * whitespace and control characters removed, so `/ /host` is refused as well.
 */
export const SAFE_HREF = /^(?:https?:|mailto:|tel:|\/(?![/\\]))/i;

/** Elements dropped with everything in them, not unwrapped (DOMPurify's own list plus these). */
const DROPPED_WITH_CONTENT = ['object', 'embed', 'applet'];

const CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR: ['href'],
  ALLOWED_URI_REGEXP: SAFE_HREF,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ADD_FORBID_CONTENTS: DROPPED_WITH_CONTENT,
  KEEP_CONTENT: true,
};

let purifier: Purifier | null = null;

/** One DOMPurify instance of our own, so the link hook does not leak into other users of the library. */
function instance(): Purifier | null {
  if (purifier) return purifier;
  if (typeof window === 'undefined') return null;
  const created = DOMPurify(window);
  if (!created.isSupported) return null;
  created.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const href = node.getAttribute('href');
    // Belt and braces: DOMPurify already applied SAFE_HREF, this keeps the rule in one place.
    // eslint-disable-next-line no-control-regex -- control characters are what browsers skip in URLs
    if (href !== null && !SAFE_HREF.test(href.replace(/[\s\u0000-\u001f]/g, ''))) node.removeAttribute('href');
    // Links to other sites open in a new tab that cannot reach back to this one.
    if (/^https?:/i.test(node.getAttribute('href') ?? '')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  purifier = created;
  return purifier;
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Safe HTML for `dangerouslySetInnerHTML`: simple formatting tags and safe links, nothing else. */
export function sanitizeHtml(html: string | null | undefined): string {
  if (!html) return '';
  const input = removeEmptyParagraphs(html);
  const purify = instance();
  // No DOM to parse with (never the case in a browser): show the text, escaped, rather than markup.
  if (!purify) return escapeText(input.replace(/<[^>]*>/g, ''));
  return purify.sanitize(input, { ...CONFIG, RETURN_TRUSTED_TYPE: false });
}
