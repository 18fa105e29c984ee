export interface FilterOption {
  value: string | number;
  label: string;
}

export interface MultimediaFilters {
  segment: FilterOption[];
  category: FilterOption[];
  year: FilterOption[];
}

export interface MultimediaVideo {
  id: number;
  label: string;
  title: string;
  preview: string;
  preview_image: string;
  url: string | null;
  code: string | null;
  hero: boolean;
}

export interface MultimediaImage {
  id: number;
  preview: string;
  hd: string;
  image: string;
  img: string;
  label: string;
  text: string;
}

export interface MultimediaQuery {
  segment: string;
  category: string;
  year: string;
}
