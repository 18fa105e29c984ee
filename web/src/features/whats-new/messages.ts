import { safeServerMessage } from '@/lib/api/errors';

/** Spec 8 texts used by What's New and the update wizard. */
export const MESSAGES = {
  generic: 'An error occurred while getting all the informations',
  operation: 'Cannot perform operation',
  wizard: 'An error occurred while showing you the last addition to the app. Check in "What\'s new"',
  updatesCheck: 'An error occurred while checking the latest app updates',
  messages: 'Failed to get messages',
  replySent: 'Thank you, your answer has been sent',
} as const;

/**
 * The text of a toast for a failed call: the server's message when it is safe
 * to show (spec 5: at most 200 characters, no angle brackets), else `fallback`.
 */
export function toastText(error: unknown, fallback: string): string {
  return safeServerMessage(error) || fallback;
}
