import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { AppNotification } from '../types';
import { whatsNewKeys } from './keys';

/** `GET /notifications`: the user's notifications, newest first. */
export function getNotifications(): Promise<AppNotification[]> {
  return api.get<AppNotification[]>('/notifications');
}

export const notificationsQuery = () =>
  queryOptions({ queryKey: whatsNewKeys.notifications(), queryFn: getNotifications, staleTime: 0 });

export function useNotifications() {
  return useQuery(notificationsQuery());
}
