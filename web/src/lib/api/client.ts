import { tokenStore, type TokenStore } from '../storage';
import { ApiError } from './errors';

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, QueryValue | QueryValue[]>;
  /** A plain object is sent as JSON; `FormData` is sent as multipart. */
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Do not treat a 401 as an expired session (the login call itself: there a
   * 401 only means wrong credentials).
   */
  allowUnauthorized?: boolean;
  /**
   * The `Idempotency-Key` of this command: one per logical action, the same on
   * every retry of it (the offline queue passes its own). Commands without one
   * get a fresh key.
   */
  idempotencyKey?: string;
}

/** The header that lets the server answer a repeated command with its first result. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** A new key for one logical action (a UUID). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

export type UnauthorizedHandler = (error: ApiError) => void;

/** The `code` of a 403 that means the current terms must be accepted first. */
export const TERMS_REQUIRED_CODE = 'terms_not_accepted';

export interface ApiClientOptions {
  /** Prefix of every path, `/api` in the app. */
  baseUrl: string;
  tokens: TokenStore;
  fetchImpl?: typeof fetch;
}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, query?: RequestOptions['query'], options?: Omit<RequestOptions, 'query' | 'method'>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body' | 'method'>): Promise<T>;
  /** Full address of an API path, for links the browser follows itself (single sign-on, downloads). */
  url(path: string, query?: RequestOptions['query']): string;
  /**
   * Registers what happens when a call answers 401. The transport only
   * reports it; the app shell decides (log out, toast, navigate).
   * Returns a function that removes the handler.
   */
  onUnauthorized(handler: UnauthorizedHandler): () => void;
  /**
   * Registers what happens when a call answers 403 with the terms code (the
   * current terms are not accepted yet). Returns a function that removes it.
   */
  onTermsRequired(handler: UnauthorizedHandler): () => void;
}

function buildQuery(query: RequestOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, raw] of Object.entries(query)) {
    const values = Array.isArray(raw) ? raw : [raw];
    for (const value of values) {
      if (value === undefined || value === null) continue;
      params.append(key, String(value));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function isJsonResponse(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('json');
}

/** Stores a `jwt` carried by any JSON response: it replaces the current token. */
function takeToken(payload: unknown, tokens: TokenStore): void {
  if (payload && typeof payload === 'object' && 'jwt' in payload) {
    const jwt = payload.jwt;
    if (typeof jwt === 'string' && jwt.length > 0) tokens.set(jwt);
  }
}

function codeOf(payload: unknown): string | null {
  if (payload && typeof payload === 'object' && 'code' in payload) {
    const code = payload.code;
    if (typeof code === 'string') return code;
  }
  return null;
}

function messageOf(payload: unknown): string | null {
  if (payload && typeof payload === 'object' && 'message' in payload) {
    const message = payload.message;
    if (typeof message === 'string') return message;
  }
  return null;
}

export function createApiClient({ baseUrl, tokens, fetchImpl }: ApiClientOptions): ApiClient {
  const handlers = new Set<UnauthorizedHandler>();
  const termsHandlers = new Set<UnauthorizedHandler>();
  const base = baseUrl.replace(/\/+$/, '');

  const url = (path: string, query?: RequestOptions['query']) =>
    `${base}/${path.replace(/^\/+/, '')}${buildQuery(query)}`;

  async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const { method = 'GET', query, body, signal, allowUnauthorized = false, idempotencyKey } = options;
    const headers = new Headers({ Accept: 'application/json' });
    const token = tokens.get();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    // Every command carries a key; a read carries one only when it is a queued action.
    if (method !== 'GET' || idempotencyKey) headers.set(IDEMPOTENCY_HEADER, idempotencyKey ?? newIdempotencyKey());

    let payloadBody: BodyInit | undefined;
    if (body instanceof FormData) {
      payloadBody = body;
    } else if (body !== undefined) {
      headers.set('Content-Type', 'application/json');
      payloadBody = JSON.stringify(body);
    }

    const doFetch = fetchImpl ?? globalThis.fetch.bind(globalThis);
    let response: Response;
    try {
      response = await doFetch(url(path, query), { method, headers, body: payloadBody, signal });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw new ApiError(0, null, cause);
    }

    let payload: unknown = null;
    if (response.status !== 204 && isJsonResponse(response)) {
      try {
        payload = await response.json();
      } catch {
        payload = null;
      }
    }
    takeToken(payload, tokens);

    if (!response.ok) {
      const error = new ApiError(response.status, messageOf(payload), payload);
      if (response.status === 401 && !allowUnauthorized) {
        for (const handler of handlers) handler(error);
      }
      if (response.status === 403 && codeOf(payload) === TERMS_REQUIRED_CODE) {
        for (const handler of termsHandlers) handler(error);
      }
      throw error;
    }
    return payload as T;
  }

  return {
    request,
    get: (path, query, options) => request(path, { ...options, method: 'GET', query }),
    post: (path, body, options) => request(path, { ...options, method: 'POST', body }),
    url,
    onUnauthorized(handler) {
      handlers.add(handler);
      return () => void handlers.delete(handler);
    },
    onTermsRequired(handler) {
      termsHandlers.add(handler);
      return () => void termsHandlers.delete(handler);
    },
  };
}

/** The app's client: same origin, everything under `/api`. */
export const api: ApiClient = createApiClient({ baseUrl: '/api', tokens: tokenStore });
