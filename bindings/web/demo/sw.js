// The demo's service worker: what makes it an installable PWA that works without its server.
// It caches the app shell, the package's modules and the .wasm when installed, answers from
// the network when it can (a deploy is seen at once) and from the cache when it cannot, and
// answers any page of the app it has no copy of — the return URL's /checkout-callback/ph_<nonce>
// included — with the cached shell, as the static host's rewrite rule does online. It keeps no
// flow state: flows live in each tab's sessionStorage, so two tabs never share one, and a return
// to the app (or a reload while offline) resumes from there with the cached module.
//
// The module to cache is the one the page loads (sw.js?wasm=/payhandoff/…wasm).
const CACHE = 'payhandoff-demo-v2';
const WASM = new URL(self.location.href).searchParams.get('wasm') || '/payhandoff/payhandoff-checkout.wasm';
const SHELL = [
  '/index.html', '/app.js', '/style.css', '/manifest.webmanifest', '/icon.svg',
  WASM,
  // The package's ES modules (dist/web/lib): the entry point and everything it imports.
  '/payhandoff/lib/web/src/index.js', '/payhandoff/lib/web/src/PayHandoff.js', '/payhandoff/lib/web/src/calls.js',
  '/payhandoff/lib/web/src/errors.js', '/payhandoff/lib/web/src/library.js', '/payhandoff/lib/web/src/page.js',
  '/payhandoff/lib/web/src/wasi.js', '/payhandoff/lib/react-native/src/types.js',
  '/payhandoff/lib/react-native/src/vocabulary.js', '/payhandoff/lib/react-native/src/versions.js',
  '/payhandoff/lib/react-native/src/redaction.js',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // The backend (sessions, webhooks) and other origins (the gateway) are never cached.
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/backend/')) return;
  event.respondWith(networkFirst(request, url));
});

// The copies are the ones taken at install: a deploy that changes the shell changes CACHE (a
// new worker, a new copy). Online, the network answers; the cache is only read.
async function networkFirst(request, url) {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await caches.match(request.mode === 'navigate' ? '/index.html' : url.pathname, { cacheName: CACHE });
    if (cached) return cached;
    throw error;
  }
}
