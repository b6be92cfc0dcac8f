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

/**
 * The entry that says a database was made in this origin (put once a worker has opened one, in
 * whatever storage): a page that finds none may take the next database for a first start.
 * @example
 * const firstStart = !(await (await caches.open('my-app-kept')).match(databaseMadeKey));
 */
export const databaseMadeKey = '/__otto/database';

/** The DB worker's side of the stamp. */
export interface DataStamp {
  /** How many invalidates were asked so far: take it before a read, hand it to `current`. */
  epoch(): number;
  /**
   * The current stamp, at once: a new one when there is none (kept in the cache right after; what
   * is tagged with it is trusted from then on). Undefined when an invalidate was asked since
   * `since` (the read may have seen data on its way out), while the stamp an earlier worker kept is
   * still being read, for a database that is not kept (`keep(false)`), and without Cache Storage.
   */
  current(since?: number): string | undefined;
  /** Removes the stamp: whatever was tagged with it is no longer trusted once this resolves. */
  invalidate(): Promise<void>;
  /** Whether the database outlives this worker: stamps for one that does not (memory) are never handed out. */
  keep(kept: boolean): Promise<void>;
  /** Says a database was made here (`databaseMadeKey`), once per worker. */
  made(): Promise<void>;
  /** Resolves once every put and delete asked so far is done. */
  idle(): Promise<void>;
}

/**
 * The data stamp kept in the Cache Storage cache `cacheName` (a no-op where there is no Cache
 * Storage, as in Node), first read once `after` settles (when this worker holds the database, so
 * that the previous owner is done with it). A delete that fails is tried again at once, then at
 * the next invalidate; a stamp that could not be kept only means nothing is trusted.
 * @example
 * const stamp = createDataStamp('otto-first-screen', filesLocked);
 * await stamp.invalidate(); // before a write is answered
 */
export function createDataStamp(cacheName: string, after: Promise<unknown> = Promise.resolve()): DataStamp {
  const storage = (globalThis as { caches?: CacheStorage }).caches;
  if (!storage) {
    const done = () => Promise.resolve();
    return { epoch: () => 0, current: () => undefined, invalidate: done, keep: done, made: done, idle: done };
  }
  const cache = after.catch(() => undefined).then(() => storage.open(cacheName));
  // What the cache holds, as far as this worker knows: a stamp; null for none; '' when unknown (a
  // read or write that failed: the next invalidate deletes whatever may be there); undefined
  // until the first read is done. Only this worker (the database's owner, under its lock) writes
  // the entry, and its puts and deletes run one after the other, in the order asked (`work`).
  let known: string | null | undefined;
  let invalidates = 0;
  let kept = true;
  let madeSaid = false;
  let removedOnce = false;
  // The first read takes both entries: whether a database was made here is known from then on.
  let madeThere = false;
  let work: Promise<unknown> = cache
    .then((c) => Promise.all([c.match(dataStampKey), c.match(databaseMadeKey)]))
    .then(async ([r, made]) => {
      madeThere = made !== undefined;
      return r ? await r.text() : null;
    })
    .catch(() => '' as const)
    .then((read) => {
      if (known === undefined) known = read;
    });
  const remove = async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await (await cache).delete(dataStampKey);
        return;
      } catch {
        // tried again below, then at the next invalidate
      }
    }
    if (known === null) known = '';
  };
  const stamp: DataStamp = {
    epoch: () => invalidates,
    current(since) {
      if (!kept || known === undefined || (since !== undefined && since !== invalidates)) return undefined;
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
      invalidates++;
      const before = known;
      known = null;
      // Nothing kept and none being kept: nothing to do (most writes after the first). The first
      // removal of a worker always runs: a previous owner's last put may have landed after the read.
      if (before !== null || !removedOnce) work = work.then(remove);
      removedOnce = true;
      return stamp.idle();
    },
    keep(on) {
      kept = on;
      return on ? Promise.resolve() : stamp.invalidate();
    },
    made() {
      if (madeSaid) return stamp.idle();
      madeSaid = true;
      work = work
        .then(async () => {
          if (!madeThere) await (await cache).put(databaseMadeKey, new Response('1', { headers: { 'content-type': 'text/plain' } }));
        })
        .catch(() => undefined);
      return stamp.idle();
    },
    idle: () => work.then(() => undefined),
  };
  return stamp;
}

function newStamp(): string {
  const random = (globalThis as { crypto?: Crypto }).crypto;
  return random?.randomUUID ? random.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
