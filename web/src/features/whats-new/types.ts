/** Where a notification leads (spec 2.9). */
export interface NotificationLink {
  type: string;
  id: number | null;
}

export interface AppNotification {
  id: number;
  title: string;
  /** HTML, sanitised by the server when the notification was published. */
  message: string;
  preview: string | null;
  link: NotificationLink | null;
  read: boolean;
  /** Publication time, RFC 3339. */
  date: string;
}

export interface GalleryImage {
  big: string;
  title: string | null;
}

export interface AppUpdate {
  id: number;
  name: string;
  release: string;
  preview: string | null;
  gallery: GalleryImage[];
  /** Where 'Discover more' leads; none shows 'Close'. */
  url: string | null;
  /** True once viewed. */
  read: boolean;
  date: string;
}

/** A survey-style message (spec 3: messageId, status, reply). */
export interface SurveyMessage {
  messageId: number;
  roundId: number | null;
  title: string;
  /** HTML, sanitised by the server. */
  message: string;
  /** The question a reply answers; none for a plain message. */
  question: string | null;
  /** 0 new, 1 seen, 2 answered. */
  status: number;
  reply: string | null;
  /** When it was sent, RFC 3339. */
  date: string;
}
