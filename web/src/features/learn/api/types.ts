import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type CourseCategory = Schemas['CourseCategory'];
/** A card of the course list. */
export type CourseRow = Schemas['CourseCard'];
export type CourseList = Schemas['CourseList'];
export type CourseDay = Schemas['CourseDay'];
export type Course = Schemas['CourseDetail'];
