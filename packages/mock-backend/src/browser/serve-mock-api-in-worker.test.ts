import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as sqliteStore from '@otto/sqlite-store';
import { describe, expect, it, vi } from 'vitest';
import { capturingLogger } from '../../test/helpers';
import {
  deserializeResponse,
  serializeRequest,
  type WorkerRequestMessage,
  type WorkerResponseMessage,
} from './protocol';
import { listenForChanges } from './change-channel';
import { serveMockApiInWorker } from './serve-mock-api-in-worker';
import { latestSchemaVersion } from '../database/migrations';
import { exportSeedDatabase } from '../database/seed-data';
import { createMockApi } from '../create-mock-api';
import { defineRoute } from '../runtime/extensions';
import type { ChangeEvent } from '@otto/api-contract';
import type { WorkerScope } from './types';

/** A stand-in for a dedicated worker's global scope: the test plays the page. */
function fakeScope() {
  const target = new EventTarget();
  const outbox: WorkerResponseMessage[] = [];
  const waiters: (() => void)[] = [];
  const scope: WorkerScope = {
    postMessage(message) {
      outbox.push(message as WorkerResponseMessage);
      waiters.splice(0).forEach((wake) => wake());
    },
    addEventListener: (type, listener) => target.addEventListener(type, listener as EventListener),
  };
  async function next<T extends WorkerResponseMessage['type']>(
    type: T,
    id?: number,
  ): Promise<Extract<WorkerResponseMessage, { type: T }>> {
    for (;;) {
      const index = outbox.findIndex((m) => m.type === type && (id === undefined || ('id' in m && m.id === id)));
      if (index >= 0) return outbox.splice(index, 1)[0] as Extract<WorkerResponseMessage, { type: T }>;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }
  const send = (message: WorkerRequestMessage) => target.dispatchEvent(new MessageEvent('message', { data: message }));
  let nextId = 1;
  async function fetch(path: string, init?: RequestInit): Promise<Response> {
    const id = nextId++;
    send({ type: 'request', id, request: await serializeRequest(new Request(`http://localhost${path}`, init)) });
    return deserializeResponse((await next('response', id)).response);
  }
  return { scope, next, send, fetch, newId: () => nextId++ };
}

const total = async (res: Response) => Number(res.headers.get('x-total-count'));

describe('serveMockApiInWorker', () => {
  it('reports ready, then answers requests', async () => {
    const worker = fakeScope();
    const served = serveMockApiInWorker({ scope: worker.scope, storage: 'memory', seed: { count: 3 } });
    const ready = await worker.next('ready');
    expect(ready.info).toMatchObject({ storage: 'memory', seeded: 3, schemaVersion: latestSchemaVersion });
    expect(await served).toEqual(ready.info);
    const res = await worker.fetch('/api/customers');
    expect(res.status).toBe(200);
    expect(await total(res)).toBe(3);
  });

  it("tells the page of an error it logs (a 500's cause), with the error's code and message", async () => {
    const worker = fakeScope();
    const failing = defineRoute({ method: 'GET', path: '/boom' }, () => {
      throw new sqliteStore.StoreError('QUERY_FAILED', 'SQL failed: no such table: gone');
    });
    void serveMockApiInWorker({ scope: worker.scope, storage: 'memory', seed: false, logger: capturingLogger().logger, extensions: [{ name: 'boom', routes: [failing] }] });
    await worker.next('ready');
    expect((await worker.fetch('/api/boom')).status).toBe(500);
    const problem = await worker.next('problem');
    expect(problem.message).toMatch(/^Unexpected error while handling a request StoreError QUERY_FAILED: SQL failed: no such table: gone$/);
  });

  it('waits for the sqlite3.wasm the page compiled (compiledSqliteFromPage), and loads it itself when none came', async () => {
    const preload = vi.spyOn(sqliteStore, 'preloadSqlite');
    const compiled = await WebAssembly.compile(readFileSync(createRequire(import.meta.url).resolve('@sqlite.org/sqlite-wasm/sqlite3.wasm')));
    for (const module of [compiled, undefined]) {
      preload.mockClear();
      const worker = fakeScope();
      const served = serveMockApiInWorker({ scope: worker.scope, storage: 'memory', seed: { count: 2 }, compiledSqliteFromPage: true });
      const wasm = preload.mock.calls[0]?.[0]?.wasm;
      expect(wasm).toBeDefined();
      worker.send({ type: 'sqlite-wasm', ...(module ? { module } : {}) });
      expect(await wasm).toBe(module);
      await worker.next('ready');
      expect(await total(await worker.fetch('/api/customers'))).toBe(2);
      await served;
    }
    preload.mockRestore();
  });

  it('opens the first-start file the page sent (seedFileFromPage), and loads it itself when the page sent none', async () => {
    const made = await createMockApi({ seed: { count: 3, fakerSeed: 7 } });
    const file = exportSeedDatabase(made.store, Date.now() - 86_400_000);
    await made.close();
    await made.store.close();
    for (const fromPage of [true, false]) {
      const worker = fakeScope();
      const load = vi.fn(async () => file);
      const served = serveMockApiInWorker({ scope: worker.scope, storage: 'memory', seed: { file: load }, seedFileFromPage: true });
      const bytes = fromPage ? (file.slice().buffer as ArrayBuffer) : undefined;
      worker.send({ type: 'seed-moment' });
      worker.send({ type: 'seed-file', ...(bytes ? { bytes } : {}) });
      expect((await worker.next('ready')).info.seeded).toBe(3);
      expect(load).toHaveBeenCalledTimes(fromPage ? 0 : 1);
      expect(await total(await worker.fetch('/api/customers'))).toBe(3);
      await served;
    }
  });

  it("moves the first-start file's dates to the moment the page sent, when it is recent", async () => {
    const made = await createMockApi({ seed: { count: 3, fakerSeed: 7 } });
    const madeAt = Date.now() - 86_400_000;
    const file = exportSeedDatabase(made.store, madeAt);
    const before = (await (await made.fetch(new Request('http://localhost/api/customers'))).json()) as { modified_dt: number }[];
    await made.close();
    await made.store.close();
    const now = Date.now();
    for (const [moment, expected] of [
      [now - 5_000, now - 5_000], // a page that opened five seconds ago
      [now - 3_600_000, now], // an hour ago: too old, the worker's own clock
    ] as const) {
      const worker = fakeScope();
      void serveMockApiInWorker({ scope: worker.scope, storage: 'memory', seed: { file }, seedFileFromPage: true, now: () => now });
      worker.send({ type: 'seed-moment', moment });
      worker.send({ type: 'seed-file', bytes: file.slice().buffer as ArrayBuffer });
      await worker.next('ready');
      const after = (await (await worker.fetch('/api/customers')).json()) as { modified_dt: number }[];
      expect(after.map((c) => c.modified_dt)).toEqual(before.map((c) => c.modified_dt + (expected - madeAt)));
    }
  });

  it('falls back to memory with the spec warning where OPFS is unavailable', async () => {
    const worker = fakeScope();
    const log = capturingLogger();
    void serveMockApiInWorker({ scope: worker.scope, logger: log.logger, seed: false });
    const { info } = await worker.next('ready');
    expect(info.storage).toBe('memory');
    expect(info.fallbackReason).toMatch(/worker/);
    expect(log.lines.join('\n')).toMatch(/Persistence failed: .*Falling back to in-memory storage/);
  });

  it('deletes the database and starts a fresh seeded one; requests wait for it', async () => {
    const worker = fakeScope();
    void serveMockApiInWorker({ scope: worker.scope, storage: 'memory', seed: { count: 2 } });
    await worker.next('ready');
    const created = await worker.fetch('/api/customers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ full_name: 'Del Etable', email: 'del@example.com', phone: '1' }),
    });
    expect(created.status).toBe(200);
    expect(await total(await worker.fetch('/api/customers'))).toBe(3);

    const id = worker.newId();
    worker.send({ type: 'delete-database', id });
    const after = worker.fetch('/api/customers');
    expect((await worker.next('deleted', id)).info).toMatchObject({ seeded: 2 });
    expect(await total(await after)).toBe(2);
  });

  it('answers requests first come, first answered: a burst of writes is answered as it goes, not all at the end', async () => {
    const worker = fakeScope();
    void serveMockApiInWorker({ scope: worker.scope, storage: 'memory', seed: { count: 5 } });
    await worker.next('ready');
    const body = (i: number) => JSON.stringify({ full_name: `Burst ${i}`, email: `burst${i}@example.com`, phone: String(i) });
    const requests = await Promise.all([
      ...Array.from({ length: 50 }, (_, i) =>
        serializeRequest(new Request('http://localhost/api/customers', { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(i) })),
      ),
      // A read sent after the burst: it sees every write of it, and comes back after all of them.
      serializeRequest(new Request('http://localhost/api/customers')),
    ]);
    const ids = requests.map((request) => {
      const id = worker.newId();
      worker.send({ type: 'request', id, request });
      return id;
    });
    const answered: number[] = [];
    const responses = await Promise.all(ids.map((id) => worker.next('response', id).then((m) => (answered.push(id), deserializeResponse(m.response)))));
    expect(responses.map((res) => res.status)).toEqual(Array(51).fill(200));
    expect(await total(responses[50]!)).toBe(55);
    expect(answered).toEqual(ids);
  });

  it('exports the database as a SQLite file', async () => {
    const worker = fakeScope();
    void serveMockApiInWorker({ scope: worker.scope, storage: 'memory', seed: { count: 1 } });
    await worker.next('ready');
    const id = worker.newId();
    worker.send({ type: 'export-database', id });
    const { bytes } = await worker.next('exported', id);
    expect(new TextDecoder().decode(new Uint8Array(bytes).slice(0, 15))).toBe('SQLite format 3');
  });

  it('retries while another worker still holds the OPFS files, instead of falling back to memory', async () => {
    const { createSqliteStore, StoreError } = sqliteStore;
    let attempts = 0;
    const asked: unknown[] = [];
    // Node has no OPFS: each store asked for is opened in memory, and the first two opens are busy.
    vi.spyOn(sqliteStore, 'createSqliteStore').mockImplementation((options) => {
      asked.push(options?.storage);
      const store = createSqliteStore({ ...options, storage: 'memory' });
      const open = store.open.bind(store);
      store.open = () =>
        ++attempts < 3 ? Promise.reject(new StoreError('BUSY', 'Failed to open the database: busy.')) : open();
      return store;
    });
    const worker = fakeScope();
    void serveMockApiInWorker({ scope: worker.scope, seed: false, busyRetryMs: 5_000 });
    expect((await worker.next('ready')).info).not.toHaveProperty('fallbackReason');
    expect(attempts).toBe(3);
    // Every attempt asked for OPFS again; none settled for memory.
    expect(asked).toEqual(['opfs', 'opfs', 'opfs']);
  });

  it('reports failed when the files stay busy past the retry time', async () => {
    const { createSqliteStore, StoreError } = sqliteStore;
    vi.spyOn(sqliteStore, 'createSqliteStore').mockImplementation((options) => {
      const store = createSqliteStore(options);
      store.open = () => Promise.reject(new StoreError('BUSY', 'Failed to open the database: it is open in another tab.'));
      return store;
    });
    const worker = fakeScope();
    await expect(serveMockApiInWorker({ scope: worker.scope, busyRetryMs: 200 })).rejects.toThrow(/another tab/);
    expect((await worker.next('failed')).error).toEqual({
      code: 'BUSY',
      message: 'Failed to open the database: it is open in another tab.',
    });
  });

  it('restores a backup (migrating an older schema), and refuses a bad file without changing anything', async () => {
    const worker = fakeScope();
    void serveMockApiInWorker({ scope: worker.scope, storage: 'memory', seed: { count: 4, fakerSeed: 2 } });
    await worker.next('ready');
    const v1 = readFileSync(new URL('../../test/fixtures/otto-v1.sqlite3', import.meta.url));
    const backup = new Blob([v1]);

    const refusedId = worker.newId();
    worker.send({ type: 'restore-database', id: refusedId, backup: new Blob(['not a database'.repeat(60)]) });
    expect((await worker.next('error', refusedId)).error.message).toMatch(/not a SQLite database/);
    expect(await total(await worker.fetch('/api/customers'))).toBe(4);

    const id = worker.newId();
    worker.send({ type: 'restore-database', id, backup });
    expect((await worker.next('restored', id)).info).toMatchObject({ schemaVersion: latestSchemaVersion, seeded: 0 });
    const res = await worker.fetch('/api/customers');
    expect(await total(res)).toBe(3);
    expect(((await res.json()) as { full_name: string }[]).map((c) => c.full_name)).toContain('Zoë Fixture');
    expect((await worker.fetch('/api/jobs')).status).toBe(200);
  });

  it('refuses, in words and before touching anything, a backup restored on a device that syncs with a team server', async () => {
    const worker = fakeScope();
    // A team server out of reach: the device works on its own copy, which a backup must not replace.
    void serveMockApiInWorker({ scope: worker.scope, storage: 'memory', sync: { serverUrl: 'http://127.0.0.1:9/api', pullEveryMs: 60_000 } });
    await worker.next('ready');
    const made = await worker.fetch('/api/customers', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ full_name: 'Made on the device', email: 'device@example.com', phone: '555 0100' }) });
    expect(made.status).toBe(200);
    const v1 = new Blob([readFileSync(new URL('../../test/fixtures/otto-v1.sqlite3', import.meta.url))]);
    for (const type of ['restore-database', 'replace-database-file'] as const) {
      const id = worker.newId();
      worker.send(type === 'restore-database' ? { type, id, backup: v1 } : { type, id, backup: v1, keepAside: true });
      const refused = (await worker.next('error', id)).error;
      expect(refused.message).toMatch(/syncs with your team server.*restore it on the team server/);
    }
    // Nothing was replaced: the device's own customer is there, and nothing of the backup.
    const list = (await (await worker.fetch('/api/customers')).json()) as { full_name: string }[];
    expect(list.map((c) => c.full_name)).toEqual(['Made on the device']);
    worker.send({ type: 'stop', id: worker.newId() });
    await worker.next('stopped');
  });

  it('posts every committed write, and a reset after delete and restore, on the change channel', async () => {
    const changeChannelName = `otto-changes-test-${Math.random()}`;
    const heard: ChangeEvent[] = [];
    const waiters: (() => void)[] = [];
    const stop = listenForChanges(changeChannelName, (event) => {
      heard.push(event);
      waiters.splice(0).forEach((wake) => wake());
    });
    const heardCount = async (n: number) => {
      while (heard.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    };
    try {
      const worker = fakeScope();
      void serveMockApiInWorker({ scope: worker.scope, storage: 'memory', seed: { count: 1 }, changeChannelName });
      await worker.next('ready');
      const created = (await (
        await worker.fetch('/api/customers', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ full_name: 'Bea Broadcast', email: 'bea@example.com', phone: '1' }),
        })
      ).json()) as { id: string };
      await worker.fetch('/api/customers', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"full_name":"x"}' });
      const id = worker.newId();
      worker.send({ type: 'delete-database', id });
      await worker.next('deleted', id);
      await heardCount(2);
      expect(heard).toEqual([
        { entity: 'customer', kind: 'created', ids: [created.id] },
        { entity: 'database', kind: 'reset', ids: [] },
      ]);

      const v1 = readFileSync(new URL('../../test/fixtures/otto-v1.sqlite3', import.meta.url));
      const restoreId = worker.newId();
      worker.send({ type: 'restore-database', id: restoreId, backup: new Blob([v1]) });
      await worker.next('restored', restoreId);
      await worker.fetch('/api/customers/1', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ full_name: 'After Restore', email: 'a@example.com', phone: '2' }),
      });
      await heardCount(4);
      expect(heard.slice(2)).toEqual([
        { entity: 'database', kind: 'reset', ids: [] },
        { entity: 'customer', kind: 'updated', ids: ['1'] },
      ]);
    } finally {
      stop();
    }
  });
});
