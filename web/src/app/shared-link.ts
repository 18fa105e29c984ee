/**
 * /s/{token}: a recipient outside the company opening a shared link. That page lives outside the
 * signed-in app: no splash, no session handling, no live socket, no service worker, no offline work.
 */
export function isSharedLinkPath(pathname: string): boolean {
  return /^\/s\/[^/]+\/?$/.test(pathname);
}
