import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { refreshBadges } from '@/lib/api/badges';
import type { AppNotification } from '../types';
import { whatsNewKeys } from './keys';

/** `GET /push/{id}`: one notification; opening it marks it read on the server (once). */
export async function openNotification(id: number): Promise<AppNotification> {
  const notification = await api.get<AppNotification>(`/push/${id}`);
  // It may have just become read: the unread counters follow.
  void refreshBadges();
  return notification;
}

export const notificationQuery = (id: number) =>
  queryOptions({ queryKey: whatsNewKeys.notification(id), queryFn: () => openNotification(id), staleTime: 0 });

/** The opened notification; nothing is fetched while `id` is null. */
export function useOpenedNotification(id: number | null) {
  return useQuery({ ...notificationQuery(id ?? 0), enabled: id !== null });
}
