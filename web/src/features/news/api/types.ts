export interface NewsItem {
  id: number;
  title: string;
  date: string;
  preview: string;
  category: string;
}

export interface NewsDetail extends NewsItem {
  /** Sanitised HTML. */
  description: string;
}

export interface NewsList {
  list: NewsItem[];
  filters: { year: { value: string; label: string }[]; category: { value: string; label: string }[] };
  year: number;
  category: string | null;
}
