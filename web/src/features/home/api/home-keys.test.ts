import { describe, expect, it } from 'vitest';
import { LIVE_QUERY_KEYS } from '@/lib/realtime/dispatch';
import { homeKeys } from './home-keys';

describe('home query keys', () => {
  it('keeps the documents carousel where the realtime feed refreshes it', () => {
    expect(LIVE_QUERY_KEYS.documents).toContainEqual(homeKeys.documents());
  });
});
