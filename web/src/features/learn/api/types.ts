import type { DocumentFile } from '@/components/programme/types';
import type { FilterOptions } from '@/lib/filters';

export interface CourseCategory {
  /** course, online, third or other. */
  class: string;
  label: string;
}

/** A card of the course list. */
export interface CourseRow {
  id: number;
  title: string;
  subtitle: string;
  typology: string;
  print_date: string;
  start_date: string;
  end_date: string;
  language: string;
  segment: { id: number; image: string }[];
  speakers: { name: string; image?: string }[];
  category: CourseCategory;
  preview?: string;
}

export interface CourseList {
  list: CourseRow[];
  filters: FilterOptions;
  selected: Record<string, string | null>;
}

export interface CourseDay {
  /** yyyy-mm-dd, what a registration sends. */
  date_value: string;
  date_text: string;
  time: string;
  title: string;
  speakers: string[];
  description?: string;
  files: DocumentFile[];
}

export interface Course {
  id: number;
  title: string;
  subtitle: string;
  category: CourseCategory;
  typology: string;
  print_date: string;
  segment: { id: number; image: string }[];
  /** Absent for online courses: shown as 'Online'. */
  location?: string | null;
  language: string;
  course_level?: string | null;
  videos: { preview?: string; label?: string; url?: string }[];
  images: string[];
  description?: string;
  speakers: { preview?: string; name: string; country?: string }[];
  files: DocumentFile[];
  show_tabs: boolean;
  show_register: boolean;
  /** External registration link. */
  evenium: string | null;
  show_learn_contact: boolean;
  learn_contact?: { email: string; subject?: string };
  save_outlook?: {
    start_date: { date: string; time: string };
    end_date: { date: string; time: string };
    /** The iCalendar file, when the course offers 'Save in calendar'. */
    link: string | null;
  };
  days: CourseDay[];
}
