import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { DocItem } from '../types';
import { reloadDocuments } from './keys';

export interface UploadInput {
  name: string;
  file: Blob;
  fileName: string;
  /** null: at the root of My Docs. */
  parent: string | null;
}

/** The multipart body: `name`, `file`, `parent` (an id, or empty for the root). */
export function uploadForm({ name, file, fileName, parent }: UploadInput): FormData {
  const form = new FormData();
  form.append('name', name);
  form.append('file', file, fileName);
  form.append('parent', parent ?? '');
  return form;
}

/** Uploads a PDF or XLS into My Docs (415 wrong type, 413 too big, 400 no name). */
export function uploadFile(input: UploadInput): Promise<DocItem> {
  return api.post<DocItem>('/documents/upload', uploadForm(input));
}

export function useUploadFile() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: uploadFile, onSuccess: () => reloadDocuments(queryClient) });
}
