import { ApiError } from './api/errors';
import { tokenStore } from './storage';

/** The file name of a `Content-Disposition` header, if it names one. */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through to the plain name */
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || null;
}

/**
 * Downloads a file served by the API (e.g. an iCalendar file) with the session token and hands
 * it to the browser as a download. `href` is a same-origin path such as `/api/calendar/...`.
 */
export async function downloadFile(href: string, fallbackName: string): Promise<void> {
  const headers = new Headers();
  const token = tokenStore.get();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const response = await fetch(href, { headers });
  if (!response.ok) throw new ApiError(response.status, null);
  const blob = await response.blob();
  saveBlob(blob, fileNameFromDisposition(response.headers.get('content-disposition')) ?? fallbackName);
}

/** Hands a blob to the browser as a download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the address goes.
  window.setTimeout(() => URL.revokeObjectURL(href), 30_000);
}
