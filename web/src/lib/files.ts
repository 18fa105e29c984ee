import { api } from './api/client';
import { ApiError } from './api/errors';
import { fileNameFromDisposition } from './download';
import { tokenStore, type TokenStore } from './storage';

export interface FetchedFile {
  blob: Blob;
  /** Content type sent by the server, e.g. application/pdf. */
  contentType: string;
  /** The file name the server gives (Content-Disposition), if any. */
  fileName: string | null;
}

export interface BinaryOptions {
  tokens?: TokenStore;
  fetchImpl?: typeof fetch;
  signal?: AbortSignal;
}

/**
 * GETs bytes with the bearer token (the JSON client cannot return a body as a
 * blob). Errors become the same `ApiError` as every other call.
 */
export async function fetchBinary(url: string, options: BinaryOptions = {}): Promise<FetchedFile> {
  const { tokens = tokenStore, fetchImpl = globalThis.fetch.bind(globalThis), signal } = options;
  const headers = new Headers();
  const token = tokens.get();
  if (token) headers.set('Authorization', `Bearer ${token}`);

  let response: Response;
  try {
    response = await fetchImpl(url, { headers, signal });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, null, cause);
  }

  if (!response.ok) {
    let message: string | null = null;
    // The body goes along: a 410 says why the document went and what replaces it.
    let body: unknown = null;
    if ((response.headers.get('content-type') ?? '').includes('json')) {
      try {
        body = await response.json();
        const { message: text } = body as { message?: unknown };
        if (typeof text === 'string') message = text;
      } catch {
        /* no readable body */
      }
    }
    if (response.status === 401) reportExpiredSession();
    throw new ApiError(response.status, message, body);
  }

  return {
    blob: await response.blob(),
    contentType: response.headers.get('content-type') ?? '',
    fileName: fileNameFromDisposition(response.headers.get('content-disposition')),
  };
}

/**
 * A 401 on a file means the session is gone. The app's single 401 policy
 * (log out, toast, back to login) hangs on the API client, so let one cheap
 * JSON call meet the same 401 there.
 */
function reportExpiredSession(): void {
  api.get('/users/get-data').catch(() => undefined);
}

export { saveBlob } from './download';
