import { describe, expect, it } from 'vitest';
import { noResultsText, SEARCH_MESSAGES } from './messages';
import { continuesTerm, isSearchable, MIN_SEARCH_LENGTH, normalizeTerm, termState } from './term';

describe('search term', () => {
  it('needs at least 2 characters once trimmed', () => {
    expect(MIN_SEARCH_LENGTH).toBe(2);
    expect(isSearchable('')).toBe(false);
    expect(isSearchable('a')).toBe(false);
    expect(isSearchable(' a ')).toBe(false);
    expect(isSearchable('   ')).toBe(false);
    expect(isSearchable('ab')).toBe(true);
    expect(isSearchable(' ab ')).toBe(true);
    expect(isSearchable('ü€')).toBe(true);
  });

  it('tells an empty bar from a short term', () => {
    expect(termState('')).toBe('empty');
    expect(termState('  ')).toBe('empty');
    expect(termState('k')).toBe('short');
    expect(termState(' k  ')).toBe('short');
    expect(termState('kn')).toBe('ok');
  });

  it('trims the term it searches', () => {
    expect(normalizeTerm('  knee  ')).toBe('knee');
    expect(normalizeTerm('reverse shoulder')).toBe('reverse shoulder');
  });

  it('uses the spec texts word for word', () => {
    expect(SEARCH_MESSAGES.tooShort).toBe('Search at least 2 characters');
    expect(SEARCH_MESSAGES.failed).toBe('An error occurred while searching');
    expect(SEARCH_MESSAGES.noResultsTitle).toBe('Sorry, no results found :(');
    expect(noResultsText('xqzv')).toBe(`We couldn't find any matches for "xqzv". Please try with another keyword.`);
  });

  it('keeps earlier results on screen only while the term grows or shrinks', () => {
    expect(continuesTerm('brigh', 'brightline')).toBe(true);
    expect(continuesTerm('brightline', 'Bright')).toBe(true);
    expect(continuesTerm(' knee', 'knee ')).toBe(true);
    expect(continuesTerm('brightline', 'ab')).toBe(false);
    expect(continuesTerm('', 'ab')).toBe(false);
    expect(continuesTerm('ab', '')).toBe(false);
  });
});
