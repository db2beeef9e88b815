/**
 * The floor view's service worker (docs/API.md "The floor", "Installable and offline"): it
 * keeps the page and its built files on the device, so that a phone or tablet opens the floor
 * view without a connection. The operator's taps wait in the page's own outbox (IndexedDB), not
 * here: the API (`/v1/…`) always goes to the network, and nothing of it is cached.
 *
 * - The page (`/floor/`): from the network when there is one (a new build shows at once), and
 *   kept; from the device when there is none.
 * - Its files (`/assets/…`, whose names carry a hash of their content, and the icon): from the
 *   device once kept, else from the network, then kept.
 * - Installing keeps the page and every file it names, so the first visit online is enough.
 *
 * Plain JavaScript in the renderer's public folder: the build copies it as it is to
 * `/floor/sw.js`, whose scope is `/floor/`.
 */
const cacheName = 'planner-floor-1';
const page = new URL('./', self.location.href).pathname;

/** The built files a page names: its scripts, styles and icon. */
function filesOf(html) {
  return [...new Set(html.match(/\/assets\/[A-Za-z0-9._-]+/g) ?? [])].concat(['/favicon.svg', `${page}manifest.webmanifest`]);
}

/** Keeps the page as answered, and every file it names. */
async function keepPage(response) {
  const cache = await caches.open(cacheName);
  const html = await response.clone().text();
  await cache.put(page, response);
  await cache.addAll(filesOf(html).filter((file) => file));
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    fetch(page, { cache: 'no-cache' })
      .then((response) => (response.ok ? keepPage(response) : undefined))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== cacheName).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/v1/')) return;
  if (request.mode === 'navigate' || url.pathname === page) {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) event.waitUntil(keepPage(response.clone()).catch(() => undefined));
          return response;
        })
        .catch(() => caches.match(page).then((kept) => kept ?? Response.error())),
    );
    return;
  }
  event.respondWith(
    caches.match(request).then(
      (kept) =>
        kept ??
        fetch(request).then((response) => {
          if (response.ok && url.pathname.startsWith('/assets/')) {
            const copy = response.clone();
            event.waitUntil(caches.open(cacheName).then((cache) => cache.put(request, copy)));
          }
          return response;
        }),
    ),
  );
});
