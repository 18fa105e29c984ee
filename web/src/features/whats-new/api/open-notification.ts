import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { refreshBadges } from '@/lib/api/badges';
import { isApiError } from '@/lib/api/errors';
import { runCommand } from '@/lib/offline';
import { queryClient } from '@/lib/query-client';
import type { AppNotification } from '../types';
import { whatsNewKeys } from './keys';

/**
 * `GET /push/{id}`: one notification; opening it marks it read on the server (once). Without a
 * network it is shown from the saved list and the read is queued, to be sent when back online.
 */
export async function openNotification(id: number): Promise<AppNotification> {
  try {
    const notification = await api.get<AppNotification>(`/push/${id}`);
    // It may have just become read: the unread counters follow.
    void refreshBadges();
    return notification;
  } catch (error) {
    const saved = queryClient.getQueryData<AppNotification[]>(whatsNewKeys.notifications())?.find((n) => n.id === id);
    if (!isApiError(error) || error.status !== 0 || !saved) throw error;
    await runCommand({ kind: 'notification_read', method: 'GET', path: `/push/${id}`, label: `Read “${saved.title}”` });
    return saved;
  }
}

export const notificationQuery = (id: number) =>
  queryOptions({ queryKey: whatsNewKeys.notification(id), queryFn: () => openNotification(id), staleTime: 0 });

/** The opened notification; nothing is fetched while `id` is null. */
export function useOpenedNotification(id: number | null) {
  return useQuery({ ...notificationQuery(id ?? 0), enabled: id !== null });
}
