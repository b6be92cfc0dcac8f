import { etagOf } from '@otto/api-contract';
import { createSqliteStore, type SqliteStore } from '@otto/sqlite-store';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi } from '../src/create-mock-api';
import { migrations } from '../src/database/migrations';
import type { MockApi } from '../src/types';
import { capturingLogger } from './helpers';

/**
 * Issue 34, decision 0120: a record's version (modified_dt, its ETag) comes from the database. A
 * stopped clock, or two APIs on one database whose clocks disagree, still give every write a new,
 * greater version, refuse a stale If-Match, and keep "newest first" and the change feed in the
 * order of the writes.
 */

const at = Date.UTC(2026, 10, 1, 9);
const hour = 3_600_000;
const ada = { full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '555 0100' };
const json = { 'content-type': 'application/json' };

let open: MockApi[] = [];
let stores: SqliteStore[] = [];
afterEach(async () => {
  for (const api of open) await api.close();
  for (const store of stores) await store.close();
  open = [];
  stores = [];
});

async function start(now: () => number, store?: SqliteStore): Promise<MockApi> {
  const api = await createMockApi({ now, logger: capturingLogger().logger, seed: { count: 0 }, ...(store ? { store } : {}) });
  open.push(api);
  return api;
}

async function call(api: MockApi, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await api.fetch(
    new Request(`http://localhost/api${path}`, { method, headers: { ...(body === undefined ? {} : json), ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
  );
  const text = await res.text();
  // A create answers without an ETag; its version is the modified_dt it answers with (etagOf).
  const answer = res.status === 200 ? (JSON.parse(text) as { modified_dt?: number } | null) : null;
  return { status: res.status, etag: res.headers.get('etag') ?? (typeof answer?.modified_dt === 'number' ? etagOf(answer.modified_dt) : null), text, body: JSON.parse(text) as Record<string, unknown> & { id: string; modified_dt: number } };
}

describe('versions with a stopped clock', () => {
  it('gives two customer writes in the same millisecond different ETags, and refuses the stale one with 412', async () => {
    const api = await start(() => at);
    const created = await call(api, 'POST', '/customers', ada);
    const first = await call(api, 'PUT', `/customers/${created.body.id}`, { ...ada, phone: '555 0101' });
    const second = await call(api, 'PUT', `/customers/${created.body.id}`, { ...ada, phone: '555 0102' });
    expect(new Set([created.etag, first.etag, second.etag]).size).toBe(3);
    expect(first.body.modified_dt).toBeGreaterThan(created.body.modified_dt);
    expect(second.body.modified_dt).toBeGreaterThan(first.body.modified_dt);
    const stale = await call(api, 'PUT', `/customers/${created.body.id}`, { ...ada, phone: '555 0199' }, { 'if-match': first.etag as string });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('PRECONDITION_FAILED');
    expect((await call(api, 'GET', `/customers/${created.body.id}`)).body.phone).toBe('555 0102');
    const current = await call(api, 'PUT', `/customers/${created.body.id}`, { ...ada, phone: '555 0103' }, { 'if-match': second.etag as string });
    expect(current.status).toBe(200);
  });

  it('gives two job writes in the same millisecond different ETags, and refuses the stale one with 412', async () => {
    const api = await start(() => at);
    const customer = await call(api, 'POST', '/customers', ada);
    const job = await call(api, 'POST', '/jobs', { customer_id: customer.body.id, title: 'Fix the roof', status: 'quote', price_cents: 1000 });
    const patched = await call(api, 'PATCH', `/jobs/${job.body.id}`, { title: 'Fix the roof, twice' }, { 'if-match': job.etag as string });
    const moved = await call(api, 'POST', `/jobs/${job.body.id}/move`, { status: 'scheduled', scheduled_start_dt: at + hour }, { 'if-match': patched.etag as string });
    expect([job.status, patched.status, moved.status]).toEqual([200, 200, 200]);
    expect(new Set([job.etag, patched.etag, moved.etag]).size).toBe(3);
    const stale = await call(api, 'PATCH', `/jobs/${job.body.id}`, { title: 'Overwritten?' }, { 'if-match': patched.etag as string });
    expect(stale.status).toBe(412);
    expect((await call(api, 'GET', `/jobs/${job.body.id}`)).body.title).toBe('Fix the roof, twice');
  });
});

describe('two APIs on one database whose clocks disagree', () => {
  it('still make every version greater, refuse a stale If-Match, and list newest first in the order of the writes', async () => {
    const store = createSqliteStore({ storage: 'memory' });
    stores.push(store);
    // A runs an hour ahead, B is behind; both clocks are stopped.
    const a = await start(() => at + hour, store);
    const b = await start(() => at, store);
    const events: { entity: string; ids: string[] }[] = [];
    for (const api of [a, b]) api.onChange((event) => events.push(event));

    const x = await call(a, 'POST', '/customers', { ...ada, full_name: 'X' });
    const y = await call(b, 'POST', '/customers', { ...ada, full_name: 'Y' });
    expect(y.body.modified_dt).toBeGreaterThan(x.body.modified_dt);
    const xByB = await call(b, 'PUT', `/customers/${x.body.id}`, { ...ada, full_name: 'X by B' }, { 'if-match': x.etag as string });
    expect(xByB.status).toBe(200);
    expect(xByB.body.modified_dt).toBeGreaterThan(x.body.modified_dt);
    // A's copy is stale now, though A's clock is ahead of every version B wrote.
    const staleByA = await call(a, 'PUT', `/customers/${x.body.id}`, { ...ada, full_name: 'X by A' }, { 'if-match': x.etag as string });
    expect(staleByA.status).toBe(412);
    const job = await call(a, 'POST', '/jobs', { customer_id: y.body.id, title: 'Job', status: 'quote', price_cents: 500 });
    const jobByB = await call(b, 'PATCH', `/jobs/${job.body.id}`, { title: 'Job by B' }, { 'if-match': job.etag as string });
    expect(jobByB.status).toBe(200);
    expect(jobByB.body.modified_dt).toBeGreaterThan(job.body.modified_dt);
    const staleJob = await call(a, 'PATCH', `/jobs/${job.body.id}`, { title: 'Job by A' }, { 'if-match': job.etag as string });
    expect(staleJob.status).toBe(412);
    const z = await call(b, 'POST', '/customers', { ...ada, full_name: 'Z' });

    // Newest first is the order of the writes: Z (B), then X (changed by B after Y was made), then Y.
    const list = await call(a, 'GET', '/customers');
    expect((list.body as unknown as { full_name: string }[]).map((c) => c.full_name)).toEqual(['Z', 'X by B', 'Y']);
    const oldestFirst = await call(b, 'GET', `/customers?filterJson=${encodeURIComponent(JSON.stringify({ sortBy: 'modified_dt', sortOrder: 'asc' }))}`);
    expect((oldestFirst.body as unknown as { full_name: string }[]).map((c) => c.full_name)).toEqual(['Y', 'X by B', 'Z']);
    // The change feed names the records in the order of their versions.
    const versions = [];
    for (const event of events) {
      const record = await call(a, 'GET', `/${event.entity === 'job' ? 'jobs' : 'customers'}/${event.ids[0]}`);
      versions.push({ event, modified: record.body.modified_dt });
    }
    expect(events.map((e) => `${e.entity} ${e.ids.join()}`)).toEqual([
      `customer ${x.body.id}`,
      `customer ${y.body.id}`,
      `customer ${x.body.id}`,
      `job ${job.body.id}`,
      `job ${job.body.id}`,
      `customer ${z.body.id}`,
    ]);
    const written = [x, y, xByB, job, jobByB, z].map((r) => r.body.modified_dt);
    expect(written).toEqual([...written].sort((p, q) => p - q));
    expect(new Set(written).size).toBe(written.length);
  });
});

describe('the migration to versions from the database', () => {
  it('keeps the versions of existing records and makes every later one greater, whatever the clock says', async () => {
    const store = createSqliteStore({ storage: 'memory' });
    stores.push(store);
    await store.open();
    store.migrate(migrations.slice(0, 13));
    // Written by a clock far ahead before the upgrade.
    const ahead = at + 10 * hour;
    store.run('INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES (?, ?, ?, ?, ?)', ['Old', '555 0100', 'old@example.com', ahead, ahead]);
    const api = await start(() => at, store);
    expect(store.userVersion()).toBe(migrations.length);
    const before = await call(api, 'GET', '/customers/1');
    expect(before.etag).toBe(`"${ahead}"`);
    const after = await call(api, 'PUT', '/customers/1', ada, { 'if-match': before.etag as string });
    expect(after.status).toBe(200);
    expect(after.body.modified_dt).toBe(ahead + 1);
    const created = await call(api, 'POST', '/customers', { ...ada, email: 'new@example.com' });
    expect(created.body.modified_dt).toBe(ahead + 2);
  });

  it('keeps the stamp above dates written without it (a first-start file whose dates were moved)', async () => {
    const store = createSqliteStore({ storage: 'memory' });
    stores.push(store);
    const api = await start(() => at, store);
    const created = await call(api, 'POST', '/customers', ada);
    store.run('UPDATE customers SET modified_dt = modified_dt + ?', [hour]);
    const updated = await call(api, 'PUT', `/customers/${created.body.id}`, ada);
    expect(updated.body.modified_dt).toBe(created.body.modified_dt + hour + 1);
  });
});
