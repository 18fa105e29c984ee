/**
 * Rich text from the server (descriptions, info texts): a small allow-list sanitiser, a plain
 * text reading for length rules, and the removal of empty paragraphs.
 */

const ALLOWED_TAGS = new Set(['P', 'STRONG', 'B', 'EM', 'I', 'U', 'UL', 'OL', 'LI', 'A', 'H3', 'H4', 'BR', 'SPAN']);

/** Drops empty paragraphs (`<p></p>`, `<p> </p>`, `<p><br></p>`). */
export function removeEmptyParagraphs(html: string): string {
  return html.replace(/<p>(\s|&nbsp;|<br\s*\/?>)*<\/p>/gi, '');
}

/** Text content of an HTML fragment, spaces collapsed (for length rules such as 'Read more'). */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  return html
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<\/(p|li|h3|h4)>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
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

function cleanNode(node: Node, doc: Document): Node | null {
  if (node.nodeType === Node.TEXT_NODE) return doc.createTextNode(node.textContent ?? '');
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const children = Array.from(element.childNodes)
    .map((child) => cleanNode(child, doc))
    .filter((child): child is Node => child !== null);
  if (!ALLOWED_TAGS.has(element.tagName)) {
    // Unknown wrappers keep their text; scripts and styles go entirely.
    if (['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT'].includes(element.tagName)) return null;
    const fragment = doc.createDocumentFragment();
    children.forEach((child) => fragment.appendChild(child));
    return fragment;
  }
  const clean = doc.createElement(element.tagName.toLowerCase());
  if (element.tagName === 'A') {
    const href = element.getAttribute('href') ?? '';
    if (/^(https?:|mailto:|tel:|\/)/i.test(href)) clean.setAttribute('href', href);
    if (/^https?:/i.test(href)) {
      clean.setAttribute('target', '_blank');
      clean.setAttribute('rel', 'noopener noreferrer');
    }
  }
  children.forEach((child) => clean.appendChild(child));
  return clean;
}

/** Keeps only simple formatting tags and safe links; everything else becomes text. */
export function sanitizeHtml(html: string | null | undefined): string {
  if (!html) return '';
  const input = removeEmptyParagraphs(html);
  if (typeof DOMParser === 'undefined') return htmlToText(input);
  const doc = new DOMParser().parseFromString(`<body>${input}</body>`, 'text/html');
  const out = doc.createElement('div');
  Array.from(doc.body.childNodes).forEach((child) => {
    const clean = cleanNode(child, doc);
    if (clean) out.appendChild(clean);
  });
  return out.innerHTML;
}
