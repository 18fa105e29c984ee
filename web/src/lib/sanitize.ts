/** Longest server message the app is willing to show to the user. */
export const MAX_SERVER_MESSAGE_LENGTH = 200;

/**
 * Makes a message coming from the server safe to show in a toast: anything
 * longer than 200 characters or containing angle brackets (markup, stack
 * traces, HTML error pages) becomes an empty text, so the caller falls back
 * to its own wording.
 */
export function sanitizeServerMessage(message: unknown): string {
  if (typeof message !== 'string') return '';
  const text = message.trim();
  if (text.length > MAX_SERVER_MESSAGE_LENGTH) return '';
  if (/[<>]/.test(text)) return '';
  return text;
}
