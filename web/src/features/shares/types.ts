/** Shapes of the tracked external shares API (the OpenAPI document's, narrowed where the page needs it). */

import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

/** Where a link stands: live, or why it no longer opens. */
export type ShareState = 'active' | 'expired' | 'revoked' | 'used_up' | 'ended';

/** Whole seconds spent on a page, all opens together. */
export type PageTime = Schemas['PageSeconds'];

/**
 * One external share of a document with what the recipient did with it (times in ms since the
 * epoch); `state` is one of `ShareState`.
 */
export type ShareView = Schemas['ShareView'];

/** A share of the Sent view: with the document it is of (`item`). */
export type SentShare = ShareView;

/** One page of the Sent view. */
export type SentPage = Schemas['SentShares'];

/**
 * What the recipient's viewer learns of a live link (never the sender's e-mail): the API's
 * `LinkInfo` with `kind` narrowed by the parser.
 */
export interface LinkInfo extends Omit<Schemas['LinkInfo'], 'kind'> {
  kind: 'pdf' | 'xls';
}
