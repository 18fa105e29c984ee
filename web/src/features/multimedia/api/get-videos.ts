import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import type { MultimediaQuery } from './types';

export type VideoList = components['schemas']['VideoList'];

/** GET /multimedia/video with the segment, category and year filters. */
export function fetchVideos(f: MultimediaQuery): Promise<VideoList> {
  return api.get<VideoList>('/multimedia/video', {
    segment: f.segment || undefined,
    category: f.category || undefined,
    year: f.year || undefined,
  });
}

export const videosQuery = (f: MultimediaQuery) =>
  queryOptions({
    queryKey: ['multimedia', 'videos', f.segment, f.category, f.year] as const,
    queryFn: () => fetchVideos(f),
    placeholderData: keepPreviousData,
  });

export function useVideos(f: MultimediaQuery, enabled: boolean) {
  return useQuery({ ...videosQuery(f), enabled });
}
