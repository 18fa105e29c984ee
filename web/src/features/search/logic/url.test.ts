import { describe, expect, it } from 'vitest';
import { paramsWithSection, paramsWithTerm, SEARCH_API_PATH, searchApiQuery, termFromParams } from './url';

describe('search addresses', () => {
  it('asks the server with the trimmed term', () => {
    expect(SEARCH_API_PATH).toBe('/search-new');
    expect(searchApiQuery('  knee ')).toEqual({ term: 'knee' });
  });

  it('reads the term from ?string', () => {
    expect(termFromParams(new URLSearchParams('string=hip%20stem'))).toBe('hip stem');
    expect(termFromParams(new URLSearchParams(''))).toBe('');
  });

  it('writes the trimmed term into ?string and drops it when empty', () => {
    expect(paramsWithTerm(new URLSearchParams(''), ' knee ').toString()).toBe('string=knee');
    expect(paramsWithTerm(new URLSearchParams('string=knee'), 'hip stem').toString()).toBe('string=hip+stem');
    expect(paramsWithTerm(new URLSearchParams('string=knee'), '   ').toString()).toBe('');
  });

  it('starts a new term from the All chip and keeps other parameters', () => {
    expect(paramsWithTerm(new URLSearchParams('string=knee&section=news&x=1'), 'hip').toString()).toBe(
      'string=hip&x=1',
    );
  });

  it('keeps the selected chip in ?section, All removes it', () => {
    expect(paramsWithSection(new URLSearchParams('string=knee'), 'news').toString()).toBe('string=knee&section=news');
    expect(paramsWithSection(new URLSearchParams('string=knee&section=news'), 'all').toString()).toBe('string=knee');
    expect(paramsWithSection(new URLSearchParams('string=knee&section=news'), null).toString()).toBe('string=knee');
  });
});
