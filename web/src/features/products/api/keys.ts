/** Query keys of the product screens. */
export const productKeys = {
  all: ['products'] as const,
  overview: () => [...productKeys.all, 'overview'] as const,
  segment: (id: string) => [...productKeys.all, 'segment', id] as const,
  category: (id: string, order: string, subcategory: string) =>
    [...productKeys.all, 'category', id, order, subcategory] as const,
  details: (id: string) => [...productKeys.all, 'details', id] as const,
  attachments: (id: string) => [...productKeys.all, 'attachments', id] as const,
  indepth: (id: string) => [...productKeys.all, 'indepth', id] as const,
  components: (id: string) => [...productKeys.all, 'components', id] as const,
  component: (id: string) => [...productKeys.all, 'component', id] as const,
};
