import type { LibraryDocument } from '@/components/documents/LibraryDocumentList';

export interface SegmentTile {
  id: number;
  type: 'segment';
  name: string;
  preview: string;
  red_label: string | null;
}

export interface FilterOption {
  value: string | number;
  label: string;
}

export interface ListItem {
  id: number;
  type: 'category' | 'product';
  name: string;
  preview: string;
  red_label: string | null;
  category: string | null;
}

export interface ProductsOverview {
  categories: SegmentTile[];
  catalogues: { title: string; documents: LibraryDocument[] };
}

export interface SegmentPage {
  id: number;
  name: string;
  preview: string;
  red_label: string | null;
  list: ListItem[];
  grouped: boolean;
  groups: { list: ListItem[] }[];
  thinkclinical: LibraryDocument[];
}

export interface CategoryPage {
  id: number;
  category_name: string;
  preview: string;
  red_label: string | null;
  parent_id: number | null;
  parent_first_level: boolean;
  filters: { order: FilterOption[]; subcategory: FilterOption[] };
  order: string;
  subcategory: string | null;
  list: ListItem[];
}

export interface ProductVideo {
  preview: string;
  label: string;
  url: string | null;
  code: string | null;
}

export interface InDepthLink {
  path: string;
  anchor: string | null;
}

export interface ProductDetails {
  id: number;
  name: string;
  parent_id: number;
  parent_first_level: boolean;
  parent_name: string;
  preview: string;
  description: string;
  images: string[];
  videos: ProductVideo[];
  benefits: string[];
  disclaimers: string;
  banner: { title: string; description: string; link: string; banner: string } | null;
  relatedProducts: { products: { id: number; name: string; image: string }[] };
  inDepth: { carousel: { title: string; items: { image: string; title: string; link: InDepthLink }[] } | null } | null;
  has_attachments: boolean;
  has_components: boolean;
}

export interface ProductAttachments {
  id: number;
  name: string;
  parent_id: number;
  parent_first_level: boolean;
  attachments: { name: string; files: LibraryDocument[] }[];
}

export interface InDepthSection {
  label: string;
  path: string;
  content: { image: string; title: string; mainText: string; subText: string };
  features: { anchor: string; title: string; image: string; description: string }[];
}

export interface InDepthPage {
  id: number;
  name: string;
  title: string;
  sections: InDepthSection[];
}

export interface ProductComponents {
  id: number;
  name: string;
  list: { id: number; title: string; preview: string | null; material: string; sterile: boolean }[];
}

export interface ComponentDetails {
  id: number;
  title: string;
  parent_id: number;
  parent_name: string;
  gallery: { big: string }[];
  material: string;
  sterile: boolean;
  notes: string;
  variants: { title: string; variants: { size: string; code: string; upon_request: boolean }[] }[];
}
