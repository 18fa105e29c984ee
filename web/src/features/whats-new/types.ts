import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

/** Where a notification leads (spec 2.9). */
export type NotificationLink = Schemas['LinkView'];

export type AppNotification = Schemas['NotificationView'];

export type GalleryImage = Schemas['GalleryView'];

export type AppUpdate = Schemas['UpdateView'];

/** A survey-style message (spec 3: messageId, status, reply). */
export type SurveyMessage = Schemas['MessageView'];
