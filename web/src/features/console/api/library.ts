import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import { fetchBinary, type FetchedFile } from '@/lib/files';
import type {
  HistoryEntry,
  LibraryAdminItem,
  LibraryDetail,
  LibraryMetadata,
  LifecycleAnswer,
  WithdrawalReport,
} from '../types';
import { consoleKeys } from './keys';

const base = (id: number) => `/admin/library/${encodeURIComponent(String(id))}`;

export function listLibrary(query: { status?: string; q?: string }, signal?: AbortSignal) {
  return api.get<{ items: LibraryAdminItem[] }>('/admin/library', query, { signal });
}

export const libraryListQuery = (query: { status?: string; q?: string }) =>
  queryOptions({
    queryKey: consoleKeys.libraryList(query),
    queryFn: async ({ signal }): Promise<LibraryAdminItem[]> => (await listLibrary(query, signal)).items,
    staleTime: 0,
    // While the next filter's answer is on the way, the rows of the last one stay.
    placeholderData: keepPreviousData,
  });

export function useLibraryList(query: { status?: string; q?: string }, enabled = true) {
  return useQuery({ ...libraryListQuery(query), enabled });
}

export function getLibraryItem(id: number, signal?: AbortSignal) {
  return api.get<LibraryDetail>(base(id), undefined, { signal });
}

export function useLibraryItem(id: number) {
  return useQuery({
    queryKey: consoleKeys.libraryItem(id),
    queryFn: ({ signal }) => getLibraryItem(id, signal),
    retry: false,
  });
}

export function getLibraryHistory(id: number, signal?: AbortSignal) {
  return api.get<HistoryEntry[]>(`${base(id)}/history`, undefined, { signal });
}

export function useLibraryHistory(id: number) {
  return useQuery({
    queryKey: consoleKeys.libraryHistory(id),
    queryFn: ({ signal }) => getLibraryHistory(id, signal),
    retry: false,
  });
}

export function getWithdrawalReport(id: number, signal?: AbortSignal) {
  return api.get<WithdrawalReport>(`${base(id)}/withdrawal-report`, undefined, { signal });
}

export function useWithdrawalReport(id: number, enabled: boolean) {
  return useQuery({
    queryKey: consoleKeys.withdrawalReport(id),
    queryFn: ({ signal }) => getWithdrawalReport(id, signal),
    enabled,
    retry: false,
  });
}

/** The withdrawal report as CSV (one line per holder and device). */
export function fetchWithdrawalReportCsv(id: number): Promise<FetchedFile> {
  return fetchBinary(api.url(`${base(id)}/withdrawal-report`, { format: 'csv' }));
}

/** The bytes of one version, whatever its state. */
export function fetchVersionFile(id: number, version: number): Promise<FetchedFile> {
  return fetchBinary(api.url(`${base(id)}/versions/${version}/file`));
}

/** A new document, as a draft of version 1 (multipart from `uploadBody`). */
export function createLibraryDocument(body: FormData) {
  return api.post<LifecycleAnswer>('/admin/library', body);
}

/** A new draft version of a document (multipart from `versionBody`). */
export function uploadVersion(id: number, body: FormData) {
  return api.post<LifecycleAnswer>(`${base(id)}/versions`, body);
}

export function updateLibraryMetadata(id: number, metadata: LibraryMetadata) {
  return api.request<LibraryAdminItem>(base(id), { method: 'PATCH', body: metadata });
}

export function submitLibrary(id: number) {
  return api.post<LifecycleAnswer>(`${base(id)}/submit`, {});
}

export function decideLibrary(id: number, kind: 'approve' | 'reject', comment: string) {
  return api.post<LifecycleAnswer>(`${base(id)}/${kind}`, { comment: comment.trim() });
}

export function withdrawLibrary(id: number, reason: string, replacement: number | null) {
  return api.post<LifecycleAnswer>(`${base(id)}/withdraw`, {
    reason: reason.trim(),
    ...(replacement !== null ? { replacement } : {}),
  });
}
