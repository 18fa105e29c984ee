import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type NewsItem = Schemas['NewsItem'];
export type NewsDetail = Schemas['NewsDetail'];

export type NewsList = Schemas['NewsList'];
