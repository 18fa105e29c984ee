import { describe, expect, it } from 'vitest';
import { checkAccess, isPublicPath, showsTabBar } from './access';

describe('route guard', () => {
  it.each(['/login', '/privacy', '/login/', '/Privacy'])('lets a logged-out visitor open %s', (path) => {
    expect(checkAccess(path, false)).toEqual({ allow: true });
  });

  it.each([
    '/home',
    '/documents',
    '/documents/folder/3',
    '/menu',
    '/terms',
    '/onboarding',
    '/new/update/1',
    '/nowhere',
  ])('sends a logged-out visitor from %s to /login', (path) => {
    expect(checkAccess(path, false)).toEqual({ allow: false, redirectTo: '/login' });
  });

  it.each(['/home', '/documents', '/login', '/privacy', '/products/detail/3/documents'])(
    'lets a logged-in user open %s',
    (path) => {
      expect(checkAccess(path, true)).toEqual({ allow: true });
    },
  );

  it('lets the empty path through: it only redirects to /login', () => {
    expect(checkAccess('/', false)).toEqual({ allow: true });
  });

  it('knows exactly two public routes', () => {
    expect(isPublicPath('/login')).toBe(true);
    expect(isPublicPath('/privacy')).toBe(true);
    expect(isPublicPath('/privacy/more')).toBe(false);
    expect(isPublicPath('/loginx')).toBe(false);
  });
});

describe('tab bar visibility', () => {
  it('is hidden while logged out', () => {
    expect(showsTabBar('/privacy', '', false)).toBe(false);
  });

  it('is shown on the main screens', () => {
    for (const path of ['/home', '/products', '/documents', '/search', '/menu', '/privacy', '/news/3']) {
      expect(showsTabBar(path, '', true)).toBe(true);
    }
  });

  it('is hidden during the first-run flow', () => {
    expect(showsTabBar('/login', '', true)).toBe(false);
    expect(showsTabBar('/terms', '', true)).toBe(false);
    expect(showsTabBar('/onboarding', '', true)).toBe(false);
    expect(showsTabBar('/new/update/3', '', true)).toBe(false);
  });

  it('is shown on the terms opened from the menu', () => {
    expect(showsTabBar('/terms', '?accepted=true', true)).toBe(true);
  });
});
