import { api } from '@/lib/api/client';

export interface PublishNotificationBody {
  title: string;
  message: string;
  preview?: string | null;
  link?: { type: string; id: number | null } | null;
  /** "everyone" or user e-mails. */
  audience: 'everyone' | string[];
}

export interface PublishUpdateBody {
  name: string;
  release: string;
  preview?: string | null;
  gallery: string[];
  url?: string | null;
}

/** `POST /admin/notifications` (admin only). */
export function publishNotification(body: PublishNotificationBody): Promise<{ id: number }> {
  return api.post<{ id: number }>('/admin/notifications', body);
}

/** `POST /admin/updates` (admin only). */
export function publishUpdate(body: PublishUpdateBody): Promise<{ id: number }> {
  return api.post<{ id: number }>('/admin/updates', body);
}
