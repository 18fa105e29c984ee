/** The formatting the news editor's toolbar offers, each an editing command of the browser. */
export const TOOLBAR = [
  { command: 'bold', label: 'B', name: 'Bold' },
  { command: 'italic', label: 'I', name: 'Italic' },
  { command: 'insertUnorderedList', label: '• List', name: 'Bulleted list' },
  { command: 'insertOrderedList', label: '1. List', name: 'Numbered list' },
  { command: 'createLink', label: 'Link', name: 'Link' },
] as const;

/**
 * The address a link may point to, as the sanitiser will keep it: http(s), mail, telephone, or a
 * path on this site; a bare host gets `https://`. `null` when it cannot be a safe link.
 */
export function linkTarget(input: string): string | null {
  const value = input.trim();
  if (!value) return null;
  if (/^(?:https?:|mailto:|tel:)/i.test(value)) return value;
  if (/^\/(?![/\\])/.test(value)) return value;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return null;
  if (/^[\w-]+(\.[\w-]+)+(\/.*)?$/.test(value)) return `https://${value}`;
  return null;
}
