import type { NotificationLink } from './types';

/** Link types that open a list, or its detail when the link has an id (spec 2.9). */
const TYPED_ROUTES: Readonly<Record<string, string>> = {
  products: '/products/detail',
  training: '/training',
  learn: '/learn',
  congress: '/congresses',
  news: '/news',
};

function positiveId(id: unknown): number | null {
  if (typeof id === 'number') return Number.isInteger(id) && id > 0 ? id : null;
  if (typeof id === 'string' && /^[1-9]\d*$/.test(id.trim())) return Number(id.trim());
  return null;
}

/**
 * Where a notification's 'Read more' leads: products -> /products/detail[/{id}],
 * training -> /training[/{id}], learn -> /learn[/{id}], congress -> /congresses[/{id}],
 * news -> /news[/{id}], any other type -> /{type}. No link (or a type that is
 * not a plain word) gives null: no 'Read more'.
 */
export function linkRoute(link: NotificationLink | null | undefined): string | null {
  if (!link || typeof link.type !== 'string') return null;
  const type = link.type.trim().toLowerCase();
  if (!type) return null;
  const base = TYPED_ROUTES[type];
  if (base) {
    const id = positiveId(link.id);
    return id === null ? base : `${base}/${id}`;
  }
  return /^[a-z][a-z0-9-]*$/.test(type) ? `/${type}` : null;
}

/** Update urls name app screens with this prefix (`/app/news/15`); the app removes it. */
export const APP_PREFIX = '/app';

export type UpdateTarget = { kind: 'in-app'; path: string } | { kind: 'external'; url: string };

/**
 * Where an update's 'Discover more' leads. `/app/news/15` and
 * `https://this-origin/app/news/15` become the route `/news/15`; another site
 * opens in a new window; anything else (other schemes, `//host`) is ignored.
 */
export function updateTarget(url: string | null | undefined, origin: string): UpdateTarget | null {
  const raw = url?.trim();
  if (!raw) return null;
  let path: string;
  if (raw.startsWith('/') && !raw.startsWith('//') && !raw.includes('\\')) {
    path = raw;
  } else {
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      return null;
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
    if (parsed.origin !== origin) return { kind: 'external', url: parsed.href };
    path = `${parsed.pathname}${parsed.search}${parsed.hash}`;
  }
  if (path === APP_PREFIX || path.startsWith(`${APP_PREFIX}/`) || path.startsWith(`${APP_PREFIX}?`)) {
    path = path.slice(APP_PREFIX.length);
  }
  if (path === '' || path === '/' || path.startsWith('?')) path = `/home${path.replace(/^\//, '')}`;
  return { kind: 'in-app', path };
}
