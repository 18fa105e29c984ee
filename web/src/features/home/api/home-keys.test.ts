import { describe, expect, it } from 'vitest';
import { homeCongressesQuery } from '../components/carousels/get-home-congresses';
import { homeKeys } from './home-keys';

describe('home query keys', () => {
  it('keeps the congresses carousel under the home keys', () => {
    expect(homeCongressesQuery().queryKey).toEqual(homeKeys.congresses());
  });
});
