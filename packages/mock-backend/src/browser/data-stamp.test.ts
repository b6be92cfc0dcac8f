// The data stamp's order of work, against a small in-memory Cache Storage (Node has none; the
// browser's real one is exercised by apps/web/e2e/kept-screen.e2e.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { createDataStamp, dataStampKey, databaseMadeKey } from './data-stamp';

/** A Cache Storage of one cache whose puts and deletes finish when the test says so, or fail. */
function installCaches() {
  const entries = new Map<string, string>();
  const pending: (() => void)[] = [];
  const state = { hold: false, fail: false, writes: 0 };
  const later = <T>(work: () => T): Promise<T> =>
    new Promise((resolve, reject) => {
      state.writes++;
      const run = () => (state.fail ? reject(new Error('QuotaExceededError')) : resolve(work()));
      if (state.hold) pending.push(run);
      else queueMicrotask(run);
    });
  const cache = {
    match: (key: string) => Promise.resolve(entries.has(key) ? new Response(entries.get(key)) : undefined),
    put: async (key: string, response: Response) => {
      const text = await response.text();
      return later(() => void entries.set(key, text));
    },
    delete: (key: string) => later(() => entries.delete(key)),
  };
  (globalThis as { caches?: unknown }).caches = { open: () => Promise.resolve(cache) };
  return { entries, state, release: () => pending.splice(0).forEach((run) => run()) };
}

afterEach(() => {
  delete (globalThis as { caches?: unknown }).caches;
});

/** Lets the stamp's first read of the cache finish. */
const read = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createDataStamp', () => {
  it('hands out one stamp until a write, keeps it in the cache, and removes it on invalidate', async () => {
    const { entries } = installCaches();
    const stamp = createDataStamp('test');
    expect(stamp.current(), 'no answer waits for the first read').toBeUndefined();
    await read();
    const first = stamp.current();
    expect(first).toMatch(/\w/);
    expect(stamp.current()).toBe(first);
    await stamp.invalidate();
    expect(entries.has(dataStampKey)).toBe(false);
    const second = stamp.current();
    expect(second).not.toBe(first);
    await stamp.invalidate();
    stamp.current();
    await stamp.invalidate();
    expect(entries.has(dataStampKey)).toBe(false);
  });

  it('hands a new stamp out while it is still being kept, and an invalidate waits for that keeping', async () => {
    const { entries, state, release } = installCaches();
    const stamp = createDataStamp('test');
    await read();
    state.hold = true;
    const given = stamp.current();
    expect(given).toBeDefined();
    expect(entries.has(dataStampKey)).toBe(false);
    let invalidated = false;
    const invalidating = stamp.invalidate().then(() => (invalidated = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(invalidated).toBe(false);
    release(); // the put finishes…
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(entries.get(dataStampKey)).toBe(given);
    expect(invalidated).toBe(false);
    release(); // …then the delete
    await invalidating;
    expect(entries.has(dataStampKey)).toBe(false);
  });

  it('takes over a stamp an earlier worker kept, and deletes it at the first write, even one before the read is done', async () => {
    const { entries } = installCaches();
    entries.set(dataStampKey, 'from-before');
    const stamp = createDataStamp('test');
    await read();
    expect(stamp.current()).toBe('from-before');
    await stamp.invalidate();
    expect(entries.has(dataStampKey)).toBe(false);
    entries.set(dataStampKey, 'from-before');
    const early = createDataStamp('test');
    await early.invalidate();
    expect(entries.has(dataStampKey)).toBe(false);
    expect(early.current()).not.toBe('from-before');
  });

  it('writes nothing for writes after the first, until a read hands a stamp out again', async () => {
    const { entries, state } = installCaches();
    const stamp = createDataStamp('test');
    await read();
    stamp.current();
    await stamp.invalidate();
    const writes = state.writes;
    await stamp.invalidate();
    await stamp.invalidate();
    expect(state.writes).toBe(writes);
    expect(entries.has(dataStampKey)).toBe(false);
  });

  it('after a failed delete it deletes again at the next invalidate, and a failed keep trusts nothing', async () => {
    const { entries, state } = installCaches();
    const stamp = createDataStamp('test');
    await read();
    const kept = stamp.current();
    await stamp.invalidate(); // settle the keeping
    expect(entries.has(dataStampKey)).toBe(false);
    stamp.current();
    await read(); // kept
    expect(entries.has(dataStampKey)).toBe(true);
    state.fail = true;
    await stamp.invalidate(); // tried twice, both failed
    expect(entries.get(dataStampKey)).toBeDefined();
    state.fail = false;
    await stamp.invalidate();
    expect(entries.has(dataStampKey)).toBe(false);
    state.fail = true;
    const unkept = stamp.current();
    expect(unkept).not.toBe(kept);
    await stamp.invalidate();
    expect(entries.has(dataStampKey)).toBe(false);
    state.fail = false;
  });

  it('stamps no read during which an invalidate was asked, nor any read of a database that is not kept', async () => {
    const { entries } = installCaches();
    const stamp = createDataStamp('test');
    await read();
    const since = stamp.epoch();
    void stamp.invalidate(); // a restore arrives while the read runs
    expect(stamp.current(since)).toBeUndefined();
    expect(stamp.current(stamp.epoch())).toBeDefined();
    await stamp.keep(false);
    expect(entries.has(dataStampKey)).toBe(false);
    expect(stamp.current()).toBeUndefined();
    await stamp.keep(true);
    expect(stamp.current()).toBeDefined();
  });

  it('reads the earlier stamp only once it may (the previous owner is done)', async () => {
    const { entries } = installCaches();
    let locked!: () => void;
    const stamp = createDataStamp('test', new Promise<void>((resolve) => (locked = resolve)));
    entries.set(dataStampKey, 'put-by-the-previous-owner-late');
    await read();
    expect(stamp.current()).toBeUndefined();
    locked();
    await read();
    await read();
    expect(stamp.current()).toBe('put-by-the-previous-owner-late');
  });

  it('says once that a database was made here, and keeps what an earlier worker said', async () => {
    const { entries, state } = installCaches();
    const stamp = createDataStamp('test');
    await stamp.made();
    expect(entries.get(databaseMadeKey)).toBe('1');
    const writes = state.writes;
    await stamp.made();
    expect(state.writes).toBe(writes);
    const later = createDataStamp('test');
    await later.made();
    expect(state.writes).toBe(writes);
  });

  it('does nothing where there is no Cache Storage', async () => {
    const stamp = createDataStamp('test');
    expect(stamp.current()).toBeUndefined();
    await expect(stamp.invalidate()).resolves.toBeUndefined();
  });
});
