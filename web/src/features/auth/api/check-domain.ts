import { api } from '@/lib/api/client';

export interface DomainCheck {
  azure: boolean;
  source: string | null;
}

/** Whether the e-mail's domain signs in through corporate single sign-on. */
export function checkDomain(email: string): Promise<DomainCheck> {
  return api.get<DomainCheck>('/users/check-domain-new', { email });
}

/** The address that starts single sign-on; the server returns to /login?token=... */
export function ssoUrl(source: string, email: string): string {
  const provider = source.replace(/[^a-z0-9_-]/gi, '').toLowerCase() || 'azure';
  return api.url(`/users/login-azure-${provider}`, { email });
}
