/** Routes a logged-out visitor may open; any other route logs out and returns to /login. */
export const PUBLIC_PATHS = ['/login', '/privacy'] as const;

function normalise(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed.toLowerCase();
}

export function isPublicPath(pathname: string): boolean {
  const path = normalise(pathname);
  return (PUBLIC_PATHS as readonly string[]).includes(path);
}

export type AccessDecision = { allow: true } | { allow: false; redirectTo: '/login' };

/** Route guard: logged-in users go anywhere, logged-out users only to the public routes. */
export function checkAccess(pathname: string, loggedIn: boolean): AccessDecision {
  // The empty path is no screen: it only redirects to /login.
  if (loggedIn || isPublicPath(pathname) || normalise(pathname) === '/') return { allow: true };
  return { allow: false, redirectTo: '/login' };
}

/**
 * Screens shown full-screen, without the bottom tab bar: the sign-in flow,
 * the first-run terms and onboarding, and every screen while logged out.
 */
export function showsTabBar(pathname: string, search: string, loggedIn: boolean): boolean {
  if (!loggedIn) return false;
  const path = normalise(pathname);
  if (path === '/' || path === '/login' || path === '/onboarding') return false;
  if (path.startsWith('/new/update')) return false;
  if (path === '/terms') return new URLSearchParams(search).get('accepted') === 'true';
  return true;
}
