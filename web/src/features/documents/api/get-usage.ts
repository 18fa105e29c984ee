import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { StorageUsage } from '../types';
import { documentsKeys } from './keys';

/** The user's storage usage and quota; every documents change reloads it with the lists. */
export function getUsage(signal?: AbortSignal): Promise<StorageUsage> {
  return api.get<StorageUsage>('/documents/usage', undefined, { signal });
}

export function useStorageUsage() {
  return useQuery({ queryKey: documentsKeys.usage(), queryFn: ({ signal }) => getUsage(signal) });
}
