import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { AppUpdate } from '../types';
import { whatsNewKeys } from './keys';

/** `GET /updates`: every app update with the user's read flag, newest first. */
export function getUpdates(): Promise<AppUpdate[]> {
  return api.get<AppUpdate[]>('/updates');
}

export const updatesQuery = () => queryOptions({ queryKey: whatsNewKeys.updates(), queryFn: getUpdates, staleTime: 0 });

export function useUpdates(enabled = true) {
  return useQuery({ ...updatesQuery(), enabled });
}
