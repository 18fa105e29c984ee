// Web Push in the service worker (imported by the worker vite-plugin-pwa generates): shows each
// push as a notification and, on tap, opens the app at the push's link. A signed-out app keeps
// that link and shows it after login (spec 2.1). The server's payload:
//   {"title": "...", "body": "...", "link": {"type": "...", "id": ...}, "url": "/in-app/path", "tag": "..."}

/** Only paths inside the app, never another origin. */
function inAppPath(url) {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') && !url.includes('\\') ? url : '/home';
}

self.addEventListener('push', (event) => {
  let data;
  try {
    data = (event.data && event.data.json()) || {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Companion';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: inAppPath(data.url), link: data.link ?? null },
    }),
  );
});

/**
 * Opens the app at a notification's link: in the app's window when one is open (it loads the
 * link as if launched on it, so a signed-out app keeps it for after login), else in a new one.
 */
async function openLink(data) {
  const target = new URL(inAppPath(data && data.url), self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (open) {
    try {
      const navigated = await open.navigate(target);
      if (navigated) {
        await navigated.focus().catch(() => undefined);
        return navigated;
      }
    } catch {
      /* not controlled by this worker: a new window below */
    }
  }
  return self.clients.openWindow(target);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openLink(event.notification.data));
});
