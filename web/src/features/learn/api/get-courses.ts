import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { learnKeys } from './keys';
import type { CourseList } from './types';

/** The filters of the course list, in the order of the Filters modal. */
export const COURSE_FILTERS = [
  { key: 'year', label: 'Year' },
  { key: 'month', label: 'Month' },
  { key: 'category', label: 'Category' },
  { key: 'segment', label: 'Segment' },
  { key: 'language', label: 'Language' },
  { key: 'typology', label: 'Typology' },
  { key: 'speaker', label: 'Speaker' },
] as const;

export const COURSE_FILTER_KEYS = COURSE_FILTERS.map((f) => f.key);

/** `GET /api/courses` with the chosen filters; without a year the server uses the current year. */
export function getCourses(filters: Record<string, string>): Promise<CourseList> {
  return api.get<CourseList>('/courses', filters);
}

export const coursesQuery = (filters: Record<string, string>) =>
  queryOptions({ queryKey: learnKeys.list(filters), queryFn: () => getCourses(filters) });

export function useCourses(filters: Record<string, string>) {
  return useQuery({ ...coursesQuery(filters), placeholderData: keepPreviousData });
}
