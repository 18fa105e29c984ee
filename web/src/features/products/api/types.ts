import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export interface FilterOption {
  value: string | number;
  label: string;
}

export type SegmentTile = Schemas['SegmentTile'];
export type ListItem = Schemas['ListItem'];
export type ProductsOverview = Schemas['ProductsOverview'];
export type SegmentPage = Schemas['SegmentPage'];
/** The server documents a filter value as any JSON; the app reads texts and numbers. */
export type CategoryPage = Omit<Schemas['CategoryPage'], 'filters'> & {
  filters: { order: FilterOption[]; subcategory: FilterOption[] };
};
export type ProductVideo = Schemas['Video'];
export type InDepthLink = Schemas['InDepthLink'];
export type ProductDetails = Schemas['ProductDetails'];
export type ProductAttachments = Schemas['ProductAttachments'];
export type InDepthSection = Schemas['InDepthSection'];
export type InDepthPage = Schemas['InDepthPage'];
export type ProductComponents = Schemas['ProductComponents'];
export type ComponentDetails = Schemas['ComponentDetails'];
