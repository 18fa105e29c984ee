import { describe, expect, it } from 'vitest';
import type { SearchItem, SearchResults } from '../types';
import { groupResults, resultCount, sectionChips, selectedSection, typeLabel, visibleGroups } from './groups';

const item = (id: string, name = `Item ${id}`): SearchItem => ({ id, name, subtitle: null, preview: null, date: null });

describe('search groups', () => {
  it('keeps the screen order of the types whatever the answer order, and skips empty ones', () => {
    const results: SearchResults = {
      documents: [item('d1')],
      news: [item('n1'), item('n2')],
      products: [item('p1')],
      training: [],
      learn: [item('c1')],
    };
    const groups = groupResults(results);
    expect(groups.map((g) => g.type)).toEqual(['products', 'news', 'learn', 'documents']);
    expect(groups.map((g) => g.label)).toEqual(['Products', 'News', 'Medical Education', 'Documents']);
    expect(groups[1]?.items.map((i) => i.id)).toEqual(['n1', 'n2']);
    expect(resultCount(groups)).toBe(5);
  });

  it('labels every known type', () => {
    const all = [
      'products',
      'components',
      'news',
      'congresses',
      'activities',
      'training',
      'learn',
      'contacts',
      'links',
      'documents',
    ];
    const results = Object.fromEntries(all.reverse().map((type) => [type, [item(type)]]));
    expect(sectionChips(groupResults(results)).map((c) => c.label)).toEqual([
      'All',
      'Products',
      'Components',
      'News',
      'Congresses',
      'Activities',
      'Training',
      'Medical Education',
      'Contacts',
      'Useful Links',
      'Documents',
    ]);
  });

  it('puts a type it does not know after the known ones, with a readable label', () => {
    const newer = { case_studies: [item('x')], news: [item('n')] };
    const groups = groupResults(newer);
    expect(groups.map((g) => [g.type, g.label])).toEqual([
      ['news', 'News'],
      ['case_studies', 'Case studies'],
    ]);
    expect(typeLabel('videos')).toBe('Videos');
  });

  it('drops malformed answers and entries', () => {
    expect(groupResults(null)).toEqual([]);
    expect(groupResults({})).toEqual([]);
    const odd = { news: 'nope', products: [null, { id: 1, name: 'x' }, item('p1')] } as unknown as SearchResults;
    expect(groupResults(odd).map((g) => [g.type, g.items.length])).toEqual([['products', 1]]);
  });

  it('offers All plus one chip per non-empty type', () => {
    const groups = groupResults({ news: [item('n')], products: [item('p')] });
    expect(sectionChips(groups)).toEqual([
      { value: 'all', label: 'All' },
      { value: 'products', label: 'Products' },
      { value: 'news', label: 'News' },
    ]);
    expect(sectionChips([])).toEqual([{ value: 'all', label: 'All' }]);
  });

  it('shows only the selected group, and everything for All or a chip without results', () => {
    const groups = groupResults({ news: [item('n')], products: [item('p')] });
    expect(selectedSection(groups, 'news')).toBe('news');
    expect(selectedSection(groups, 'documents')).toBe('all');
    expect(selectedSection(groups, null)).toBe('all');
    expect(visibleGroups(groups, 'news').map((g) => g.type)).toEqual(['news']);
    expect(visibleGroups(groups, 'all').map((g) => g.type)).toEqual(['products', 'news']);
    expect(visibleGroups(groups, 'documents').map((g) => g.type)).toEqual(['products', 'news']);
  });
});
