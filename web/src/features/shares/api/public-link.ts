/**
 * The recipient's side of a tracked link. The recipient has no account: these calls use plain
 * `fetch`, never the app's API client, and send no credentials of any kind.
 */
import { fileNameFromDisposition } from '@/lib/download';
import type { LinkInfo } from '../types';
import type { BeaconBody } from '../logic/tracker';

export const GONE_TEXT = 'This link is no longer available.';
export const MISSING_TEXT = 'This link does not exist.';
export const VIEW_ONLY_TEXT = 'The sender allowed viewing only.';

/** Why a link does not open, as the page says it. */
export type LinkRefusal =
  { status: 'gone'; replacement: boolean } | { status: 'missing' } | { status: 'failed'; message: string };

export type InfoResult = { status: 'live'; info: LinkInfo } | LinkRefusal;
export type FileResult = { status: 'ok'; blob: Blob; fileName: string | null } | { status: 'view_only' } | LinkRefusal;

const FAILED = 'The document cannot be opened right now. Check your connection and try again.';

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const number = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** The link's details from the server's JSON; null when it is not what the contract says. */
export function parseLinkInfo(body: unknown): LinkInfo | null {
  const value = record(body);
  const title = text(value.title);
  if (!title || (value.kind !== 'pdf' && value.kind !== 'xls')) return null;
  return {
    company: text(value.company),
    sender: { name: text(record(value.sender).name) },
    sent_at: number(value.sent_at),
    expires_at: number(value.expires_at),
    title,
    kind: value.kind,
    allow_download: value.allow_download === true,
    size: number(value.size),
  };
}

async function jsonOf(response: Response): Promise<unknown> {
  try {
    return (await response.json()) as unknown;
  } catch {
    return null;
  }
}

/** 410 and 404 mean the same on every viewer route. */
async function refusal(response: Response): Promise<LinkRefusal> {
  if (response.status === 410) {
    const replacement = record(await jsonOf(response)).replacement;
    return { status: 'gone', replacement: typeof replacement === 'string' && replacement !== '' };
  }
  if (response.status === 404) return { status: 'missing' };
  return { status: 'failed', message: FAILED };
}

const base = (token: string) => `/api/s/${encodeURIComponent(token)}`;
const request: RequestInit = { credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' };

/** The link's details; reading them does not count as an open. */
export async function getLinkInfo(token: string, fetchImpl: typeof fetch = fetch): Promise<InfoResult> {
  let response: Response;
  try {
    response = await fetchImpl(base(token), { ...request, headers: { Accept: 'application/json' } });
  } catch {
    return { status: 'failed', message: FAILED };
  }
  if (!response.ok) return refusal(response);
  const info = parseLinkInfo(await jsonOf(response));
  return info ? { status: 'live', info } : { status: 'failed', message: FAILED };
}

/** The address of the file for this page load (`view`); the first request of a view is the open. */
export function linkFileUrl(token: string, view: string, download: boolean): string {
  const query = new URLSearchParams({ view });
  if (download) query.set('download', '1');
  return `${base(token)}/file?${query.toString()}`;
}

/** The document's bytes, to show (`download` false) or to save (recorded as a download). */
export async function fetchLinkFile(
  token: string,
  view: string,
  download: boolean,
  fetchImpl: typeof fetch = fetch,
): Promise<FileResult> {
  let response: Response;
  try {
    response = await fetchImpl(linkFileUrl(token, view, download), request);
  } catch {
    return { status: 'failed', message: FAILED };
  }
  if (response.status === 403) return { status: 'view_only' };
  if (!response.ok) return refusal(response);
  try {
    const blob = await response.blob();
    return { status: 'ok', blob, fileName: fileNameFromDisposition(response.headers.get('content-disposition')) };
  } catch {
    return { status: 'failed', message: FAILED };
  }
}

export interface BeaconTransport {
  sendBeacon?: (url: string, data: string) => boolean;
  fetch?: typeof fetch;
}

/**
 * Sends a report with `navigator.sendBeacon` (it survives the page closing); when the browser
 * has none or refuses it, with a `keepalive` fetch. Fire and forget: a lost report only loses dwell.
 */
export function sendBeacon(token: string, body: BeaconBody, transport: BeaconTransport = browserTransport()): void {
  const url = `${base(token)}/beacon`;
  const data = JSON.stringify(body);
  if (transport.sendBeacon?.(url, data)) return;
  void transport
    .fetch?.(url, {
      ...request,
      method: 'POST',
      keepalive: true,
      headers: { 'Content-Type': 'application/json' },
      body: data,
    })
    .catch(() => undefined);
}

function browserTransport(): BeaconTransport {
  const nav = typeof navigator !== 'undefined' ? navigator : undefined;
  return {
    sendBeacon: typeof nav?.sendBeacon === 'function' ? (url, data) => nav.sendBeacon(url, data) : undefined,
    fetch: typeof fetch === 'function' ? (input, init) => fetch(input, init) : undefined,
  };
}
