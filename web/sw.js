// The service worker: keeps a visited page working offline. Every file of the page is cached when it
// installs (the list and the version are written in by scripts/offline.mjs at build time); requests
// go to the network first, so a new build shows at once, and fall back to the cache when offline.
const kVersion = 'dev';
const kPrecache = ['./'];
const kCacheName = `dpcalc-${kVersion}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(kCacheName)
      .then((cache) => cache.addAll(kPrecache))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((name) => name.startsWith('dpcalc-') && name !== kCacheName).map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

// The response goes to the page as soon as it arrives; storing its copy does not hold it up.
async function networkFirst(event) {
  const { request } = event;
  const cache = await caches.open(kCacheName);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') event.waitUntil(cache.put(request, response.clone()));
    return response;
  } catch (error) {
    // The page's address carries its state (?embed=1, #…): any of them is the cached page.
    const cached =
      (await cache.match(request, { ignoreSearch: request.mode === 'navigate' })) ??
      (request.mode === 'navigate' ? await cache.match('./') : undefined);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(networkFirst(event));
});
