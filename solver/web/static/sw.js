// sw.js - the static site's service worker (written by solver/web/site.py,
// which fills in VERSION, the hash of the site's files, and FILES, every
// one of them). Installed, it keeps the whole site in a cache of that
// version and answers from it: once loaded, the game plays offline. A new
// build has a new version: it is fetched whole, then the old cache goes.
const VERSION = null;
const FILES = [];
const CACHE = `patience-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith("patience-") && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(request, { ignoreSearch: true }).then((hit) => hit || fetch(request))),
  );
});
