import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type FilterOption = Schemas['FilterOption'];

export type SegmentTile = Schemas['SegmentTile'];
export type ListItem = Schemas['ListItem'];
export type ProductsOverview = Schemas['ProductsOverview'];
export type SegmentPage = Schemas['SegmentPage'];
export type CategoryPage = Schemas['CategoryPage'];
export type ProductVideo = Schemas['Video'];
export type InDepthLink = Schemas['InDepthLink'];
export type ProductDetails = Schemas['ProductDetails'];
export type ProductAttachments = Schemas['ProductAttachments'];
export type InDepthSection = Schemas['InDepthSection'];
export type InDepthPage = Schemas['InDepthPage'];
export type ProductComponents = Schemas['ProductComponents'];
export type ComponentDetails = Schemas['ComponentDetails'];
