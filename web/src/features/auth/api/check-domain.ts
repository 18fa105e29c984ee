import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

export type DomainCheck = components['schemas']['CheckDomainResponse'];

/** Whether the e-mail's domain signs in through corporate single sign-on. */
export function checkDomain(email: string): Promise<DomainCheck> {
  return api.get<DomainCheck>('/users/check-domain-new', { email });
}

/** The address that starts single sign-on; the server returns to /login?token=... */
export function ssoUrl(source: string, email: string): string {
  const provider = source.replace(/[^a-z0-9_-]/gi, '').toLowerCase() || 'azure';
  return api.url(`/users/login-azure-${provider}`, { email });
}
