// The data stamp: a value kept in Cache Storage that names the database's current contents. The DB
// worker deletes it before it answers any write (and before a delete, restore or replacement is
// done), and makes a new one, lazily, for the next read; every GET answer carries the stamp it was
// read under in the `x-otto-data-stamp` header. A page can then keep something derived from an
// answer (say, the first screen's HTML) tagged with that answer's stamp, and a later page can trust
// it exactly when the stamp in Cache Storage is still the same: any write since has removed it.
// The DB worker is the one place every write passes through, in order, so the check needs no
// timing: a write is acknowledged only after its stamp is gone.

/**
 * The response header that carries the stamp a GET answer was read under.
 * @example
 * const stamp = response.headers.get(dataStampHeader);
 */
export const dataStampHeader = 'x-otto-data-stamp';

/**
 * Where the stamp is kept: the request URL of its entry in the `dataStampCache` cache.
 * @example
 * const now = await (await (await caches.open('my-app-kept')).match(dataStampKey))?.text();
 * const trusted = now !== undefined && now === kept.stamp;
 */
export const dataStampKey = '/__otto/data-stamp';

/** The DB worker's side of the stamp. */
export interface DataStamp {
  /**
   * The current stamp; a new one when there is none, kept in the cache right after (what is tagged
   * with it is trusted from then on). Undefined without Cache Storage.
   */
  current(): Promise<string | undefined>;
  /** Removes the stamp: whatever was tagged with it is no longer trusted. */
  invalidate(): Promise<void>;
}

/**
 * The data stamp kept in the Cache Storage cache `cacheName` (a no-op where there is no Cache
 * Storage, as in Node). Failures to reach the cache are swallowed: a stamp that could not be kept
 * only means nothing is trusted.
 * @example
 * const stamp = createDataStamp('otto-first-screen');
 * await stamp.invalidate(); // before a write is answered
 */
export function createDataStamp(cacheName: string): DataStamp {
  const storage = (globalThis as { caches?: CacheStorage }).caches;
  if (!storage) return { current: () => Promise.resolve(undefined), invalidate: () => Promise.resolve() };
  const cache = storage.open(cacheName);
  // What the cache holds, as far as this worker knows: a stamp, null for none, '' when unknown (a
  // read or write that failed: the next invalidate deletes whatever may be there). Read once, then
  // kept in step with the cache: only this worker (the database's owner, under its lock) writes it.
  let known: Promise<string | null> = cache
    .then((c) => c.match(dataStampKey))
    .then(async (r) => (r ? await r.text() : null))
    .catch(() => '');
  return {
    current() {
      // A new stamp is handed out at once; keeping it runs behind. Until it is kept nothing tagged
      // with it is trusted, and an invalidate waits for it (the chain), so no answer waits here.
      let fresh: string | undefined;
      const value = known.then((v) => v || (fresh = newStamp()));
      known = value.then(async (v) => {
        if (v !== fresh) return v;
        try {
          await (await cache).put(dataStampKey, new Response(v, { headers: { 'content-type': 'text/plain' } }));
          return v;
        } catch {
          return '';
        }
      });
      return value;
    },
    invalidate() {
      known = known.then(async (value) => {
        if (value === null) return null;
        try {
          await (await cache).delete(dataStampKey);
          return null;
        } catch {
          return '';
        }
      });
      return known.then(() => undefined);
    },
  };
}

function newStamp(): string {
  const random = (globalThis as { crypto?: Crypto }).crypto;
  return random?.randomUUID ? random.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
