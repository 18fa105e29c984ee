/** Where the product screens lead and where their back buttons go (spec 2.17). */

interface ParentRef {
  parent_id: number | null | undefined;
  parent_first_level?: boolean;
}

/** Details and Documents tabs: the segment when the parent is first level, else the category. */
export function productBackTarget(product: ParentRef): string {
  if (!product.parent_id) return '/products';
  return product.parent_first_level ? `/products/${product.parent_id}` : `/products/category/${product.parent_id}`;
}

/** Category page: its parent segment (or parent category), else /products. */
export function categoryBackTarget(category: ParentRef): string {
  if (!category.parent_id) return '/products';
  return category.parent_first_level === false
    ? `/products/category/${category.parent_id}`
    : `/products/${category.parent_id}`;
}

/** Component detail: the components list of its product. */
export function componentBackTarget(parentId: number | null | undefined): string {
  return parentId ? `/products/detail/${parentId}/components` : '/products';
}

/** A segment or category list entry: categories open their page, anything else a product. */
export function listItemTarget(item: { id: number; type: string }): string {
  return item.type === 'category' ? `/products/category/${item.id}` : `/products/detail/${item.id}`;
}

/** The in-depth page of a product, at a section (tab) and an anchor. */
export function inDepthPath(
  productId: number | string,
  link?: { path?: string | null; anchor?: string | null },
): string {
  const parts = [`/products/detail/${productId}/indepth`];
  if (link?.path) {
    parts.push(encodeURIComponent(link.path));
    if (link.anchor) parts.push(encodeURIComponent(link.anchor));
  }
  return parts.join('/');
}

/** Fixed order of the in-depth section tabs; any other section comes after these, as given. */
export const IN_DEPTH_TAB_ORDER = ['info', 'details', 'hotel', 'day', 'activities', 'download', 'contacts'] as const;

export function orderInDepthSections<T extends { path: string }>(sections: readonly T[]): T[] {
  const rank = (path: string) => {
    const i = (IN_DEPTH_TAB_ORDER as readonly string[]).indexOf(path);
    return i === -1 ? IN_DEPTH_TAB_ORDER.length : i;
  };
  // Array.prototype.sort is stable: unknown sections keep their order.
  return [...sections].sort((a, b) => rank(a.path) - rank(b.path));
}

/** The Shoulder segment's first group (spec 2.17, 9). */
export const SHOULDER_FIRST_CATEGORIES = [37, 42] as const;
