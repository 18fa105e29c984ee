import { describe, expect, it } from 'vitest';
import { linkRoute, updateTarget } from './link-route';

describe('notification link routes (spec 2.9)', () => {
  it.each([
    ['products', 163, '/products/detail/163'],
    ['products', null, '/products/detail'],
    ['training', 4, '/training/4'],
    ['training', null, '/training'],
    ['learn', 12, '/learn/12'],
    ['learn', null, '/learn'],
    ['congress', 7, '/congresses/7'],
    ['congress', null, '/congresses'],
    ['news', 15, '/news/15'],
    ['news', null, '/news'],
  ])('%s with id %s goes to %s', (type, id, path) => {
    expect(linkRoute({ type, id })).toBe(path);
  });

  it('sends any other type to /{type}', () => {
    expect(linkRoute({ type: 'useful', id: null })).toBe('/useful');
    expect(linkRoute({ type: 'documents', id: 3 })).toBe('/documents');
    expect(linkRoute({ type: 'multimedia', id: null })).toBe('/multimedia');
  });

  it('reads the type without regard to case or spaces', () => {
    expect(linkRoute({ type: ' News ', id: 2 })).toBe('/news/2');
  });

  it('accepts an id sent as text, ignores a bad one', () => {
    expect(linkRoute({ type: 'news', id: '15' as unknown as number })).toBe('/news/15');
    expect(linkRoute({ type: 'news', id: 0 })).toBe('/news');
    expect(linkRoute({ type: 'news', id: -3 })).toBe('/news');
    expect(linkRoute({ type: 'news', id: 1.5 })).toBe('/news');
  });

  it('gives no route without a usable link', () => {
    expect(linkRoute(null)).toBeNull();
    expect(linkRoute(undefined)).toBeNull();
    expect(linkRoute({ type: '', id: 3 })).toBeNull();
    expect(linkRoute({ type: 'javascript:alert(1)', id: null })).toBeNull();
    expect(linkRoute({ type: '../login', id: null })).toBeNull();
    expect(linkRoute({ type: '//evil.example', id: null })).toBeNull();
  });
});

describe('update url (Discover more)', () => {
  const origin = 'https://companion.example';

  it('removes the app prefix', () => {
    expect(updateTarget('/app/news/15', origin)).toEqual({ kind: 'in-app', path: '/news/15' });
    expect(updateTarget('/app/learn', origin)).toEqual({ kind: 'in-app', path: '/learn' });
    expect(updateTarget('/app/search?string=knee', origin)).toEqual({ kind: 'in-app', path: '/search?string=knee' });
    expect(updateTarget('/app', origin)).toEqual({ kind: 'in-app', path: '/home' });
  });

  it('keeps app paths without the prefix', () => {
    expect(updateTarget('/documents', origin)).toEqual({ kind: 'in-app', path: '/documents' });
    expect(updateTarget('/application', origin)).toEqual({ kind: 'in-app', path: '/application' });
  });

  it('opens this app from a full address', () => {
    expect(updateTarget('https://companion.example/app/news/3', origin)).toEqual({ kind: 'in-app', path: '/news/3' });
  });

  it('opens another site outside the app', () => {
    expect(updateTarget('https://www.meridian-ortho.example/x', origin)).toEqual({
      kind: 'external',
      url: 'https://www.meridian-ortho.example/x',
    });
  });

  it('ignores missing and unsafe urls', () => {
    for (const url of [null, undefined, '', '  ', 'javascript:alert(1)', '//evil.example/app', 'app/news/1']) {
      expect(updateTarget(url, origin)).toBeNull();
    }
  });
});
