import { describe, expect, it } from 'vitest';
import { homeCongressesQuery } from '../components/carousels/get-home-congresses';
import { LIVE_QUERY_KEYS } from '@/lib/realtime/dispatch';
import { homeKeys } from './home-keys';

describe('home query keys', () => {
  it('keeps the congresses carousel under the home keys', () => {
    expect(homeCongressesQuery().queryKey).toEqual(homeKeys.congresses());
  });

  it('keeps the documents carousel where the realtime feed refreshes it', () => {
    expect(LIVE_QUERY_KEYS.documents).toContainEqual(homeKeys.documents());
  });
});
