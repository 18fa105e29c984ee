import { isApiError, safeServerMessage } from '@/lib/api/errors';

/**
 * The text shown when the server refuses a console action: its own message as it sends it
 * (sanitised), else a sentence for the status, else the caller's fallback.
 */
export function refusalMessage(error: unknown, fallback: string): string {
  const own = safeServerMessage(error);
  if (own) return own;
  if (!isApiError(error)) return fallback;
  switch (error.status) {
    case 0:
      return 'No connection to the server. Try again when you are online.';
    case 403:
      return 'Your role may not do this.';
    case 404:
      return 'This item no longer exists.';
    case 409:
      return 'Someone else changed this item just now. Reload and try again.';
    case 413:
      return 'The file is too large.';
    default:
      return fallback;
  }
}
