import { sanitizeServerMessage } from '../sanitize';

/** A failed call: `status` is the HTTP status, 0 when the network failed. */
export class ApiError extends Error {
  readonly status: number;
  /** The `message` field of the JSON error body, as sent by the server (not sanitised). */
  readonly serverMessage: string | null;
  readonly body: unknown;

  constructor(status: number, serverMessage: string | null, body: unknown = null) {
    super(serverMessage ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = serverMessage;
    this.body = body;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * The server's message for an error, safe to show: sanitised, and empty when
 * there is none. Callers fall back to their own text: `safeServerMessage(e) || 'Login failed'`.
 */
export function safeServerMessage(error: unknown): string {
  return isApiError(error) ? sanitizeServerMessage(error.serverMessage) : '';
}

export function hasStatus(error: unknown, ...statuses: number[]): boolean {
  return isApiError(error) && statuses.includes(error.status);
}
