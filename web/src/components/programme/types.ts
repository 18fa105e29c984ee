/**
 * Shapes of the congress and training details served by `/api/congresses/{id}` and
 * `/api/training/{id}` (spec section 3). Every 'Save in calendar' place carries `calendar`, the
 * address of its iCalendar file.
 */

import type { LibraryDocument } from '../documents/LibraryDocumentList';

export interface Tab<C = unknown> {
  title: string;
  content: C;
}

/** A programme document: a library document with the address of its served file. */
export type DocumentFile = LibraryDocument;

export interface Expert {
  name: string;
  subtitle?: string;
  preview?: string;
  image?: string;
  description?: string;
}

export interface ActivityEvent {
  id: number;
  title: string;
  subtitle1?: string;
  subtitle2?: string;
  location?: string;
  image?: string;
  start_date: string;
  start_date_time?: string;
  end_date: string;
  end_date_time?: string;
  description?: string;
  experts?: Expert[];
  files?: DocumentFile[];
  /** e.g. workshop, lunch, dinner. */
  type?: string;
  googlemaps?: string;
  calendar?: string;
  parent_id?: number;
  parent_name?: string;
}

export interface ActivityGroup {
  label: string;
  events: ActivityEvent[];
}

export interface InfoContent {
  name?: string;
  subtitle?: string;
  image?: string;
  intro_video?: { preview_image: string; url?: string } | null;
  first_date: string;
  first_date_time?: string;
  last_date: string;
  last_date_time?: string;
  calendar?: string;
  link?: string;
  description?: string;
  description_short?: string;
  /** Training: 'Link for Registration'. */
  registration?: { text?: string; link?: string };
}

export interface Venue {
  name?: string;
  gallery?: string[];
  description?: string;
  link_googlemaps?: string;
  link_googlemaps_label?: string;
  link_download?: string | null;
  link_download_label?: string | null;
}

export interface TimingDates {
  from_date: string;
  from_time?: string;
  to_date: string;
  to_time?: string;
  calendar?: string;
  description?: string;
  description_short?: string;
}

export interface Booth {
  gallery?: string[];
  description?: string;
}

export interface DetailsContent {
  congress_venue?: Venue;
  timing_dates?: TimingDates;
  useful_information?: { description?: string };
  main_topics?: { description?: string };
  [key: string]: unknown;
}

export interface Hotel {
  image?: string;
  name: string;
  address?: string;
  googlemaps?: string;
  checkin_date: string;
  checkout_date: string;
  info?: string;
  calendar?: string;
}

export interface Transfer {
  transfer_date: string;
  transfer_time: string;
  transfer_return_date: string;
  transfer_return_time: string;
  info?: string;
  calendar?: string;
}

export interface HotelContent {
  hotel?: Hotel;
  transfer?: Transfer;
  additional_hotels?: Hotel[];
  additional_transfers?: Transfer[];
}

export interface DayEvent {
  time: string;
  title: string;
  subtitle?: string;
  description?: string;
  calendar?: string;
}

export interface DayContent {
  events?: { date: string; events: DayEvent[] }[];
}

export interface KeyMessage {
  title: string;
  description?: string;
  images?: string[];
}

export interface Video {
  label?: string;
  title?: string;
  preview?: string;
  url?: string | null;
  code?: string | null;
}

export interface MediaContent {
  accordions?: { title: string; images?: string[]; videos?: Video[] }[];
  general_images?: string[];
  general_videos?: Video[];
}

export interface ContactCard {
  name?: string;
  address?: string;
  phone?: string | null;
  email?: string | null;
  website?: string | null;
}

export interface ContactsContent {
  name?: string;
  phone?: string;
  email?: string;
  website?: string;
  congress_venue?: ContactCard;
  hotel?: ContactCard;
  staff?: { name: string; role?: string; phone?: string; email?: string }[];
}

export type TabsMap = Record<string, Tab>;
