// The control routes' shelf in the browser: Cache Storage, which a reload and the next owner tab share.
import { memoryShelf, type ControlShelf } from '../runtime/scenarios';

/** The cache the DB worker keeps the scenario in force and the snapshots in. */
export const controlCacheName = 'otto-mock-backend-control';

/**
 * A `ControlShelf` in Cache Storage (memory where a browser has none, as on plain http).
 * @example
 * void serveMockApiInWorker({}); // uses cacheShelf() for /api/__otto/…
 */
export function cacheShelf(cacheName = controlCacheName): ControlShelf {
  const storage = (globalThis as { caches?: CacheStorage }).caches;
  if (!storage) return memoryShelf();
  const keyOf = (key: string) => new URL(`/__otto-control/${key.split('/').map(encodeURIComponent).join('/')}`, globalThis.location?.origin ?? 'http://localhost').href;
  return {
    async get(key) {
      const found = await (await storage.open(cacheName)).match(keyOf(key));
      return found ? new Uint8Array(await found.arrayBuffer()) : undefined;
    },
    async set(key, bytes) {
      const cache = await storage.open(cacheName);
      if (bytes) await cache.put(keyOf(key), new Response(bytes.slice().buffer as ArrayBuffer, { headers: { 'content-type': 'application/octet-stream' } }));
      else await cache.delete(keyOf(key));
    },
  };
}
