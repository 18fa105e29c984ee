import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { learnKeys } from './keys';
import type { Course } from './types';

/** `GET /api/courses/{id}`. */
export function getCourse(id: string): Promise<Course> {
  return api.get<Course>(`/courses/${encodeURIComponent(id)}`);
}

export const courseQuery = (id: string) =>
  queryOptions({ queryKey: learnKeys.detail(id), queryFn: () => getCourse(id) });

export function useCourse(id: string | undefined) {
  return useQuery({ ...courseQuery(id ?? ''), enabled: Boolean(id) });
}
