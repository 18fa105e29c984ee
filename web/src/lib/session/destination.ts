/**
 * Where a user goes right after login or session restore: the first
 * applicable of terms, onboarding, a pending update notice, a stored launch
 * link, a pending notification link, otherwise home.
 */

export interface DestinationInput {
  /** Terms need accepting when this is true or unset. */
  needAcceptTerms: boolean | null | undefined;
  /** true: onboarding must be shown. */
  onboarding: boolean | null | undefined;
  updateId: number | null | undefined;
  /** The in-app link the app was opened with, stored while logged out. */
  launchLink: string | null | undefined;
  /** The link of a notification opened while logged out. */
  notificationLink: string | null | undefined;
}

export type DestinationReason = 'terms' | 'onboarding' | 'update' | 'launch' | 'notification' | 'home';

export interface Destination {
  path: string;
  reason: DestinationReason;
}

const NOT_A_DESTINATION = ['/login', '/terms', '/onboarding'];

/**
 * Accepts only paths inside the app ("/news/3?x=1"), never another origin
 * ("//evil.example", "https://...") nor the screens of the sign-in flow itself.
 */
export function isInAppLink(link: string | null | undefined): link is string {
  if (!link || typeof link !== 'string') return false;
  if (!link.startsWith('/') || link.startsWith('//') || link.includes('\\')) return false;
  const path = link.split(/[?#]/, 1)[0] ?? '';
  if (path === '/' || path === '') return false;
  return !NOT_A_DESTINATION.some((p) => path === p || path.startsWith(`${p}/`));
}

export function decideDestination(input: DestinationInput): Destination {
  if (input.needAcceptTerms !== false) return { path: '/terms', reason: 'terms' };
  if (input.onboarding === true) return { path: '/onboarding', reason: 'onboarding' };
  if (typeof input.updateId === 'number' && Number.isFinite(input.updateId)) {
    return { path: `/new/update/${input.updateId}`, reason: 'update' };
  }
  if (isInAppLink(input.launchLink)) return { path: input.launchLink, reason: 'launch' };
  if (isInAppLink(input.notificationLink)) return { path: input.notificationLink, reason: 'notification' };
  return { path: '/home', reason: 'home' };
}
