// The floor of the path: a service worker that answers every /api/* request at once (after
// reading the request body, as any relay must) with a constant response of the size of a real
// first page (10 customers). Whatever the whole path costs above this is the relay and the database.
interface FloorFetchEvent extends Event {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface FloorScope {
  readonly location: Location;
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: Event & { waitUntil(p: Promise<unknown>): void }) => void): void;
  addEventListener(type: 'fetch', listener: (event: FloorFetchEvent) => void): void;
}
declare const self: FloorScope;
export {};

const page = Array.from({ length: 10 }, (_, i) => ({
  id: String(100_000 - i),
  full_name: `Customer Number${i}`,
  phone: '(555) 010-0199 x123',
  email: `customer.number${i}@example.com`,
  created_dt: 1_700_000_000_000 + i,
  modified_dt: 1_760_000_000_000 - i,
}));
const body = JSON.stringify(page);
const headers = { 'content-type': 'application/json; charset=utf-8', 'x-total-count': '100000' };

self.addEventListener('install', () => {
  void self.skipWaiting();
});
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith('/api/')) return;
  // A relay cannot do less than read what it relays: the request body, when there is one.
  const read = event.request.method === 'GET' ? Promise.resolve() : event.request.arrayBuffer();
  event.respondWith(read.then(() => new Response(body, { headers })));
});
