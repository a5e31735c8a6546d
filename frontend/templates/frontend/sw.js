// The service worker (frontend/offline.py makes this file; docs/frontend.md, "Offline").
// It holds no rules and no game: it keeps copies of the site's own files so that the pages
// open without a network, and shows the offline page for a page it has no copy of.  The
// API, the sockets and the admin always go to the network: nothing the server decides is
// ever answered from a copy.
const CONFIG = {{ config|safe }};
const SHELL = `ds-shell-${CONFIG.version}`;  // this deploy's pages and files
const RUNTIME = 'ds-runtime';                // Pyodide and the engine: kept across deploys
const MODE = 'ds-mode';                      // holds '/offline/on' while offline mode is on
const NETWORK_ONLY = ['/api/', '/ws/', '/admin/', '/sw.js', '/healthz', '/readyz', '/i18n/'];

async function offlineOn() {
  return !!(await (await caches.open(MODE)).match('/offline/on', { ignoreVary: true }));
}

async function fill() {
  const shell = await caches.open(SHELL);
  const runtime = await caches.open(RUNTIME);
  const missing = [];
  for (const url of CONFIG.runtime) if (!(await runtime.match(url))) missing.push(url);
  await runtime.addAll(missing);
  await shell.addAll(CONFIG.tables);
  // Another deploy's Pyodide or engine is of no more use.
  for (const req of await runtime.keys()) {
    if (!CONFIG.runtime.includes(new URL(req.url).pathname)) await runtime.delete(req);
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    await (await caches.open(SHELL)).addAll(CONFIG.shell);
    if (await offlineOn()) await fill();
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('ds-shell-') && name !== SHELL) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// From a page (pwa.js): turn offline mode on (everything offline play needs, cached now)
// or off (all of it dropped).  The answer goes back on the message's port.
self.addEventListener('message', (event) => {
  const port = event.ports[0];
  const kind = event.data && event.data.type;
  const work = (async () => {
    if (kind === 'offline-on') {
      await fill();
      await (await caches.open(MODE)).put('/offline/on', new Response('1'));
    } else if (kind === 'offline-off') {
      await caches.delete(MODE);
      await caches.delete(RUNTIME);
    }
    return { on: await offlineOn(), version: CONFIG.version };
  })();
  event.waitUntil(work.then((r) => port && port.postMessage({ ok: true, ...r }),
    (e) => port && port.postMessage({ ok: false, error: String(e) })));
});

async function page(request) {
  try {
    const res = await fetch(request);
    if (res.ok && !res.redirected && res.type === 'basic') {
      const copy = res.clone();
      caches.open(SHELL).then((c) => c.put(request, copy));
    }
    return res;
  } catch (e) {
    const shell = await caches.open(SHELL);
    // The page as last seen, or the same page with other parameters (?deal=random), or the
    // offline page.  Vary (Cookie, Accept-Language) is ignored: this browser's copy is
    // the one it would be shown again.
    const loose = { ignoreVary: true };
    return (await shell.match(request, loose))
      || (await shell.match(request, { ...loose, ignoreSearch: true }))
      || (await shell.match('/offline/', loose)) || Response.error();
  }
}

async function file(request) {
  const hit = await caches.match(request, { ignoreVary: true });
  if (hit) return hit;
  return fetch(request);
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== location.origin) return;
  if (NETWORK_ONLY.some((p) => url.pathname.startsWith(p))) return;
  if (request.mode === 'navigate') event.respondWith(page(request));
  else event.respondWith(file(request));
});
