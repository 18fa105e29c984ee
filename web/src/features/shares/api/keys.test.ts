import { describe, expect, it } from 'vitest';
import { LIVE_QUERY_KEYS } from '@/lib/realtime/dispatch';
import { itemSharesQuery, sentSharesQuery } from './shares';

const under = (key: readonly unknown[]) =>
  LIVE_QUERY_KEYS.shares.some((prefix) => prefix.every((part, i) => key[i] === part));

describe('shares query keys', () => {
  it('stay under the prefix the feed refreshes, so an open Shares screen updates live', () => {
    expect(under(itemSharesQuery('7').queryKey)).toBe(true);
    expect(under(sentSharesQuery().queryKey)).toBe(true);
  });
});
