/**
 * Shapes of the congress and training details served by `/api/congresses/{id}` and
 * `/api/training/{id}` (spec section 3), generated from the server's OpenAPI document. Every
 * 'Save in calendar' place carries `calendar`, the address of its iCalendar file.
 */

import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

/** A tab as the tab bar sees it, whatever its content. */
export interface Tab<C = unknown> {
  title: string;
  content: C;
}

/** A programme document: a library document with the address of its served file. */
export type DocumentFile = Schemas['LibraryDocument'];
export type Expert = Schemas['Expert'];
export type ActivityEvent = Schemas['Activity'];
export type ActivityGroup = Schemas['ActivityGroup'];
export type InfoContent = Schemas['InfoContent'];
export type Venue = Schemas['Venue'];
export type TimingDates = Schemas['TimingDates'];
export type DetailsContent = Schemas['DetailsContent'];
export type Hotel = Schemas['Hotel'];
export type Transfer = Schemas['Transfer'];
export type HotelContent = Schemas['HotelContent'];
export type DayEvent = Schemas['DayEvent'];
export type DayContent = Schemas['DayContent'];
export type KeyMessage = Schemas['KeyMessage'];
export type Video = Schemas['MediaVideo'];
export type MediaContent = Schemas['MediaContent'];
export type ContactCard = Schemas['ContactCard'];
export type ContactsContent = Schemas['ContactsContent'];
export type TabsMap = Schemas['ProgrammeTabs'];
