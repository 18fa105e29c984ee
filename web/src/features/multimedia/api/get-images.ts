import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import type { MultimediaQuery } from './types';

export type ImageList = components['schemas']['ImageList'];

/** GET /multimedia/images with the segment, category and year filters. */
export function fetchImages(f: MultimediaQuery): Promise<ImageList> {
  return api.get<ImageList>('/multimedia/images', {
    segment: f.segment || undefined,
    category: f.category || undefined,
    year: f.year || undefined,
  });
}

export const imagesQuery = (f: MultimediaQuery) =>
  queryOptions({
    queryKey: ['multimedia', 'images', f.segment, f.category, f.year] as const,
    queryFn: () => fetchImages(f),
    placeholderData: keepPreviousData,
  });

export function useImages(f: MultimediaQuery, enabled: boolean) {
  return useQuery({ ...imagesQuery(f), enabled });
}
