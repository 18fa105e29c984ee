import { api } from '@/lib/api/client';
import { fetchBinary, type BinaryOptions, type FetchedFile } from '@/lib/files';
import { downloadUrl } from '../logic/file';

export { fetchBinary, saveBlob, type BinaryOptions, type FetchedFile } from '@/lib/files';

/** The file of an item, to show (PDF) or save. Opening marks the item read on the server. */
export function fetchFile(url: string, download = false, options?: BinaryOptions): Promise<FetchedFile> {
  return fetchBinary(download ? downloadUrl(url) : url, options);
}

/** The history of an item as CSV (auditors). */
export function fetchHistoryCsv(id: string, options?: BinaryOptions): Promise<FetchedFile> {
  return fetchBinary(api.url(`/documents/${encodeURIComponent(id)}/history.csv`), options);
}
