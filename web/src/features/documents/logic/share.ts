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

/** A link lasts at most this many days unless the server says otherwise (EXTERNAL_LINK_MAX_DAYS). */
export const LINK_MAX_DAYS = 30;
export const LINK_DEFAULT_DAYS = 7;
export const MAX_OPENS_LIMIT = 1000;

export const LINK_MESSAGES = {
  days: (max: number) => `A link can last from 1 to ${max} days`,
  opens: `The number of opens must be between 1 and ${MAX_OPENS_LIMIT}`,
} as const;

/** The link options as the dialog's fields hold them. */
export interface LinkFields {
  days: string;
  allowDownload: boolean;
  limitOpens: boolean;
  maxOpens: string;
}

export const initialLinkFields: LinkFields = {
  days: String(LINK_DEFAULT_DAYS),
  allowDownload: true,
  limitOpens: false,
  maxOpens: '3',
};

function wholeNumber(typed: string): number | null {
  const value = typed.trim();
  return /^\d{1,6}$/.test(value) ? Number(value) : null;
}

/** The link options of the fields, or the server's own words for what it would refuse. */
export function linkOptions(
  fields: LinkFields,
  maxDays: number = LINK_MAX_DAYS,
):
  | { ok: true; options: { expires_in_days: number; allow_download: boolean; max_opens: number | null } }
  | { ok: false; message: string } {
  const days = wholeNumber(fields.days);
  if (days === null || days < 1 || days > maxDays) return { ok: false, message: LINK_MESSAGES.days(maxDays) };
  let maxOpens: number | null = null;
  if (fields.limitOpens) {
    maxOpens = wholeNumber(fields.maxOpens);
    if (maxOpens === null || maxOpens < 1 || maxOpens > MAX_OPENS_LIMIT)
      return { ok: false, message: LINK_MESSAGES.opens };
  }
  return { ok: true, options: { expires_in_days: days, allow_download: fields.allowDownload, max_opens: maxOpens } };
}
