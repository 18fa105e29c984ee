import { describe, expect, it } from 'vitest';
import {
  categoryBackTarget,
  componentBackTarget,
  inDepthPath,
  listItemTarget,
  orderInDepthSections,
  productBackTarget,
} from './navigation';

describe('back targets', () => {
  it('product: segment when the parent is first level, else the category', () => {
    expect(productBackTarget({ parent_id: 6, parent_first_level: true })).toBe('/products/6');
    expect(productBackTarget({ parent_id: 37, parent_first_level: false })).toBe('/products/category/37');
    expect(productBackTarget({ parent_id: null })).toBe('/products');
  });
  it('category: /products/{parent_id}, or /products without a parent', () => {
    expect(categoryBackTarget({ parent_id: 1, parent_first_level: true })).toBe('/products/1');
    expect(categoryBackTarget({ parent_id: 1 })).toBe('/products/1');
    expect(categoryBackTarget({ parent_id: 37, parent_first_level: false })).toBe('/products/category/37');
    expect(categoryBackTarget({ parent_id: null })).toBe('/products');
    expect(categoryBackTarget({ parent_id: 0 })).toBe('/products');
  });
  it('component: the components list of its product', () => {
    expect(componentBackTarget(101)).toBe('/products/detail/101/components');
    expect(componentBackTarget(undefined)).toBe('/products');
  });
});

describe('list targets and in-depth links', () => {
  it('categories open their page, products their detail', () => {
    expect(listItemTarget({ id: 37, type: 'category' })).toBe('/products/category/37');
    expect(listItemTarget({ id: 163, type: 'product' })).toBe('/products/detail/163');
  });
  it('in-depth path carries tab and anchor', () => {
    expect(inDepthPath(101, { path: 'info', anchor: 'bone-preservation' })).toBe(
      '/products/detail/101/indepth/info/bone-preservation',
    );
    expect(inDepthPath(101, { path: 'day', anchor: null })).toBe('/products/detail/101/indepth/day');
    expect(inDepthPath(101)).toBe('/products/detail/101/indepth');
  });
});

describe('orderInDepthSections', () => {
  it('uses the fixed order, others after in their own order', () => {
    const paths = ['faq', 'download', 'training', 'info', 'contacts', 'day', 'details', 'activities', 'hotel'];
    const ordered = orderInDepthSections(paths.map((path) => ({ path }))).map((s) => s.path);
    expect(ordered).toEqual([
      'info',
      'details',
      'hotel',
      'day',
      'activities',
      'download',
      'contacts',
      'faq',
      'training',
    ]);
  });
  it('does not change its input', () => {
    const input = [{ path: 'day' }, { path: 'info' }];
    orderInDepthSections(input);
    expect(input[0]?.path).toBe('day');
  });
});
