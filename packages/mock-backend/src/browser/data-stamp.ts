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
   * The current stamp, at once: a new one when there is none (kept in the cache right after; what
   * is tagged with it is trusted from then on). Undefined without Cache Storage, and while the
   * stamp an earlier worker kept is still being read (an answer then goes without).
   */
  current(): string | undefined;
  /** Removes the stamp: whatever was tagged with it is no longer trusted once this resolves. */
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
  if (!storage) return { current: () => undefined, invalidate: () => Promise.resolve() };
  const cache = storage.open(cacheName);
  // What the cache holds, as far as this worker knows: a stamp; null for none; '' when unknown (a
  // read or write that failed: the next invalidate deletes whatever may be there); undefined
  // until the first read is done. Only this worker (the database's owner, under its lock) writes
  // the entry, and its puts and deletes run one after the other, in the order asked (`work`).
  let known: string | null | undefined;
  let work: Promise<unknown> = cache
    .then((c) => c.match(dataStampKey))
    .then(async (r) => (r ? await r.text() : null))
    .catch(() => '' as const)
    .then((read) => {
      if (known === undefined) known = read;
    });
  return {
    current() {
      if (known === undefined) return undefined;
      if (known) return known;
      // A new stamp is handed out at once and kept behind: nothing tagged with it is trusted
      // before it is in the cache, and an invalidate asked meanwhile runs after the keeping.
      const fresh = newStamp();
      known = fresh;
      work = work.then(async () => {
        try {
          await (await cache).put(dataStampKey, new Response(fresh, { headers: { 'content-type': 'text/plain' } }));
        } catch {
          if (known === fresh) known = '';
        }
      });
      return fresh;
    },
    invalidate() {
      const before = known;
      known = null;
      // Nothing kept and none being kept: nothing to do (most writes after the first).
      if (before === null) return work.then(() => undefined);
      work = work.then(async () => {
        try {
          await (await cache).delete(dataStampKey);
        } catch {
          if (known === null) known = '';
        }
      });
      return work.then(() => undefined);
    },
  };
}

function newStamp(): string {
  const random = (globalThis as { crypto?: Crypto }).crypto;
  return random?.randomUUID ? random.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
