import { describe, expect, it } from 'vitest';
import type { SearchDocument } from '../types';
import { openTarget } from './open';

describe('opening a search result', () => {
  it('goes to the screen of products, training, courses, congresses and news', () => {
    expect(openTarget('products', { id: '164' })).toEqual({ kind: 'route', path: '/products/detail/164' });
    expect(openTarget('training', { id: '3' })).toEqual({ kind: 'route', path: '/training/3' });
    expect(openTarget('learn', { id: '12' })).toEqual({ kind: 'route', path: '/learn/12' });
    expect(openTarget('congresses', { id: '7' })).toEqual({ kind: 'route', path: '/congresses/7' });
    expect(openTarget('news', { id: '26' })).toEqual({ kind: 'route', path: '/news/26' });
  });

  it('sends everything else to /home', () => {
    for (const type of ['components', 'activities', 'contacts', 'links', 'unknown', 'constructor', '__proto__']) {
      expect(openTarget(type, { id: '1' })).toEqual({ kind: 'route', path: '/home' });
    }
    expect(openTarget('products', { id: '' })).toEqual({ kind: 'route', path: '/home' });
  });

  it('opens the action menu of a document', () => {
    const document: SearchDocument = {
      id: 'a-1',
      type: 'file',
      title: 'Expense policy summary',
      name: 'x.pdf',
      actions: [],
      for_internal_use: false,
      controlled_release: false,
      upon_request: false,
      unread: false,
      updated_at: 0,
    };
    expect(openTarget('documents', { id: 'a-1', document })).toEqual({ kind: 'document', document });
    expect(openTarget('documents', { id: 'a-1' })).toEqual({ kind: 'route', path: '/home' });
  });

  it('keeps ids inside their path segment', () => {
    expect(openTarget('news', { id: 'a/b?c' })).toEqual({ kind: 'route', path: '/news/a%2Fb%3Fc' });
  });
});
