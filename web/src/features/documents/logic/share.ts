import { hasStatus, safeServerMessage } from '@/lib/api/errors';
import type { ShareKind } from './actions';
import { MESSAGES, RECIPIENT_NOT_FOUND_DURATION } from './messages';

/** The recipient lookup runs once the typed e-mail is longer than this (spec section 5, 9). */
export const RECIPIENT_LOOKUP_AFTER = 3;

export function shouldLookupRecipients(typed: string): boolean {
  return typed.trim().length > RECIPIENT_LOOKUP_AFTER;
}

/**
 * The recipient field: what the user typed, and the listed user they picked.
 * Picking a listed user fills the e-mail; picking it again unselects it and
 * the field shows what was typed.
 */
export interface RecipientState {
  typed: string;
  selected: string | null;
}

export type RecipientEvent = { type: 'typed'; value: string } | { type: 'picked'; email: string } | { type: 'reset' };

export const initialRecipient: RecipientState = { typed: '', selected: null };

export function recipientReducer(state: RecipientState, event: RecipientEvent): RecipientState {
  switch (event.type) {
    case 'typed':
      return { typed: event.value, selected: null };
    case 'picked':
      return { ...state, selected: state.selected === event.email ? null : event.email };
    case 'reset':
      return initialRecipient;
  }
}

/** The e-mail the share is sent to. */
export function recipientEmail(state: RecipientState): string {
  return (state.selected ?? state.typed).trim();
}

/** The search sent to the lookup: what was typed, not a picked address. */
export function recipientSearch(state: RecipientState): string | null {
  const typed = state.typed.trim();
  return shouldLookupRecipients(typed) ? typed : null;
}

export interface ToastSpec {
  message: string;
  duration?: number;
}

/**
 * The toast of a failed share: an unknown colleague (404 on an internal share)
 * gets the spec's 6000 ms text; anything else the server's message.
 */
export function shareErrorToast(error: unknown, kind: ShareKind): ToastSpec {
  if (kind !== 'external' && hasStatus(error, 404)) {
    return { message: MESSAGES.recipientNotFound, duration: RECIPIENT_NOT_FOUND_DURATION };
  }
  return { message: safeServerMessage(error) || MESSAGES.cannotShare };
}
