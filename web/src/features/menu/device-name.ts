import { describeUserAgent } from '@/lib/session/device';

/** 'Chrome on Android', from the user agent a device signed in with. */
export function deviceName(userAgent: string | null | undefined): string {
  const { os, browser } = describeUserAgent(userAgent ?? '');
  if (os === 'Unknown' && browser === 'Unknown') return 'Unknown device';
  if (os === 'Unknown') return browser;
  if (browser === 'Unknown') return os;
  return `${browser} on ${os}`;
}
