// The self-service app's service worker: keeps the app's shell (its page, script and stylesheet) so
// that the app opens without a network, to punch offline. It caches nothing else: the API's answers
// (GraphQL, /auth) always go to the network, and punches made offline wait in IndexedDB, sent by
// the page when it is back online (queue.ts).
const sw = self as unknown as ServiceWorkerGlobalScope;

const CACHE = 'timegate-me-v1';
const SHELL = ['/me', '/console/assets/me.js', '/console/assets/me.css', '/me/manifest.webmanifest', '/favicon.svg'];

sw.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => sw.skipWaiting()),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => sw.clients.claim()),
  );
});

sw.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== sw.location.origin) return;
  const shell = url.pathname === '/me' || url.pathname === '/me/invitation' ? '/me' : SHELL.includes(url.pathname) ? url.pathname : null;
  if (shell === null) return;
  // Network first (a new version is seen at once), the kept copy when there is no network.
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          void caches.open(CACHE).then((cache) => cache.put(shell, copy));
        }
        return response;
      })
      .catch(async () => (await caches.match(shell)) ?? Response.error()),
  );
});

export {};
