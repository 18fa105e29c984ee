import { create } from 'zustand';
import { api } from './api/client';
import { readJson, storage, writeJson } from './storage';

/**
 * Call-to-action addresses (`GET /url-cta`): support mailbox, forgotten password, privacy policy,
 * education contact... They come from the server so they change without a new build. The last
 * set received is kept on the device, so the login screen (signed out, no call possible) shows
 * the current addresses too; the defaults below mirror the content until the first answer.
 */
export const DEFAULT_CTA_URLS: Readonly<Record<string, string>> = {
  support: 'mailto:support@example.com',
  forgot_password: 'https://www.example.com/forgot-password',
  privacy_policy: 'https://www.meridian-ortho.example/privacy',
  learn_contact: 'mailto:education@meridian-ortho.example',
};

const STORAGE_KEY = 'companion.cta-urls';

/** Only addresses the app can open safely: web pages, mail links and in-app paths. */
export function isSafeCtaUrl(url: string): boolean {
  return /^(https?:\/\/|mailto:|\/)/i.test(url) && !/^\/\//.test(url) && url.length <= 2000;
}

/** The usable entries of a `/url-cta` answer (anything else is dropped, never shown). */
export function cleanCtaUrls(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [name, url] of Object.entries(value as Record<string, unknown>)) {
    if (typeof url === 'string' && isSafeCtaUrl(url.trim())) out[name] = url.trim();
  }
  return out;
}

function stored(): Record<string, string> {
  return cleanCtaUrls(readJson<unknown>(storage, STORAGE_KEY));
}

interface CtaState {
  urls: Record<string, string>;
  set: (urls: Record<string, string>) => void;
}

export const useCta = create<CtaState>()((set) => ({
  urls: { ...DEFAULT_CTA_URLS, ...stored() },
  set: (urls) => set({ urls: { ...DEFAULT_CTA_URLS, ...urls } }),
}));

/** Fetches the addresses (signed in) and keeps them; a failure leaves the known ones in place. */
export async function loadCtaUrls(): Promise<void> {
  try {
    const urls = cleanCtaUrls(await api.get<unknown>('/url-cta'));
    useCta.getState().set(urls);
    writeJson(storage, STORAGE_KEY, urls);
  } catch {
    /* the defaults or the last known addresses stay */
  }
}

/** The address named `name`. */
export function useCtaUrl(name: string): string {
  return useCta((s) => s.urls[name] ?? DEFAULT_CTA_URLS[name] ?? '');
}

/** The e-mail address of a `mailto:` call to action ('support@example.com'). */
export function mailAddressOf(url: string): string {
  return url.replace(/^mailto:/i, '').split('?')[0] ?? '';
}
