import { etagOf, requestIdPolicy } from '@otto/api-contract';
import type { TestPostgres } from '@otto/postgres-testing';
import { describeIfPostgres, sharedTestPostgres } from '@otto/postgres-testing/vitest';
import pgDriver from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresApi, type PostgresApi } from '../src/postgres/create-postgres-api';
import { postgresMigrations } from '../src/postgres/migrations';
import { runPostgresMigrations } from '../src/postgres/run-migrations';
import { requestIdHeader } from '../src/runtime/request-id';
import { capturingLogger, manualClock } from './helpers';

/**
 * Issues 34 (decisions 0120, 0121) on PostgreSQL, where several API processes share one database:
 * two APIs whose clocks are stopped an hour apart still give every write a greater version, refuse
 * a stale If-Match, and list newest first in the order of the writes; a request id names one
 * request on every process.
 */

const ada = { full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '555 0100' };

describeIfPostgres('versions and request ids on PostgreSQL, two API processes with skewed clocks', () => {
  let pg: TestPostgres;
  let a: PostgresApi;
  let b: PostgresApi;
  // A runs an hour ahead of B; both clocks stand still unless a test moves them.
  const clockA = manualClock(Date.UTC(2026, 10, 1, 10));
  const clockB = manualClock(Date.UTC(2026, 10, 1, 9));

  async function call(api: PostgresApi, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await api.fetch(
      new Request(`http://localhost/api${path}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const text = await res.text();
    const parsed = JSON.parse(text) as Record<string, unknown> & { id: string; modified_dt: number; code?: string };
    // A create answers without an ETag; its version is the modified_dt it answers with.
    const etag = res.headers.get('etag') ?? (res.status === 200 && typeof parsed?.modified_dt === 'number' ? etagOf(parsed.modified_dt) : '');
    return { status: res.status, etag, text, body: parsed };
  }
  const names = async (api: PostgresApi, filter: object = {}) =>
    ((await call(api, 'GET', `/customers?filterJson=${encodeURIComponent(JSON.stringify({ limit: 1000, ...filter }))}`)).body as unknown as { full_name: string }[]).map((c) => c.full_name);

  beforeAll(async () => {
    pg = await sharedTestPostgres();
    a = await createPostgresApi({ connectionString: pg.connectionString, seed: false, now: clockA.now, logger: capturingLogger().logger });
    b = await createPostgresApi({ connectionString: pg.connectionString, seed: false, now: clockB.now, logger: capturingLogger().logger });
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await pg?.stop();
  });

  it('gives writes in one stopped millisecond different versions and refuses a stale If-Match, customers and jobs', async () => {
    const created = await call(a, 'POST', '/customers', ada);
    const first = await call(a, 'PUT', `/customers/${created.body.id}`, { ...ada, phone: '555 0101' });
    const second = await call(a, 'PUT', `/customers/${created.body.id}`, { ...ada, phone: '555 0102' });
    expect(new Set([created.etag, first.etag, second.etag]).size).toBe(3);
    expect((await call(a, 'PUT', `/customers/${created.body.id}`, ada, { 'if-match': first.etag })).status).toBe(412);
    const job = await call(a, 'POST', '/jobs', { customer_id: created.body.id, title: 'Roof', status: 'quote', price_cents: 100 });
    const patched = await call(a, 'PATCH', `/jobs/${job.body.id}`, { title: 'Roof 2' }, { 'if-match': job.etag });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.etag).not.toBe(job.etag);
    const stale = await call(a, 'PATCH', `/jobs/${job.body.id}`, { title: 'Roof 3' }, { 'if-match': job.etag });
    expect(stale.status).toBe(412);
  }, 60_000);

  it('makes every version greater across the two processes, refuses a stale If-Match, and lists newest first in write order', async () => {
    const events: string[] = [];
    const stop = b.onChange((event) => events.push(`${event.entity} ${event.ids.join()}`));
    // The last test's writes by A reach B through NOTIFY too, and on a busy machine after this
    // one subscribed: a write of A that B hears says that everything before it has arrived.
    const marker = await call(a, 'POST', '/customers', { ...ada, full_name: 'Marker' });
    await expect.poll(() => events.at(-1), { timeout: 10_000 }).toBe(`customer ${marker.body.id}`);
    events.length = 0;
    const x = await call(a, 'POST', '/customers', { ...ada, full_name: 'Skew X' });
    const y = await call(b, 'POST', '/customers', { ...ada, full_name: 'Skew Y' });
    expect(y.body.modified_dt).toBeGreaterThan(x.body.modified_dt);
    const xByB = await call(b, 'PUT', `/customers/${x.body.id}`, { ...ada, full_name: 'Skew X by B' }, { 'if-match': x.etag });
    expect(xByB.status, xByB.text).toBe(200);
    expect(xByB.body.modified_dt).toBeGreaterThan(y.body.modified_dt);
    const staleByA = await call(a, 'PUT', `/customers/${x.body.id}`, { ...ada, full_name: 'Skew X by A' }, { 'if-match': x.etag });
    expect(staleByA.status).toBe(412);
    const job = await call(a, 'POST', '/jobs', { customer_id: y.body.id, title: 'Skew job', status: 'quote', price_cents: 100 });
    const jobByB = await call(b, 'PATCH', `/jobs/${job.body.id}`, { title: 'Skew job by B' }, { 'if-match': job.etag });
    expect(jobByB.body.modified_dt).toBeGreaterThan(job.body.modified_dt);
    expect((await call(a, 'PATCH', `/jobs/${job.body.id}`, { title: 'Skew job by A' }, { 'if-match': job.etag })).status).toBe(412);
    const z = await call(b, 'POST', '/customers', { ...ada, full_name: 'Skew Z' });
    expect(z.body.modified_dt).toBeGreaterThan(jobByB.body.modified_dt);

    expect((await names(a)).filter((n) => n.startsWith('Skew'))).toEqual(['Skew Z', 'Skew X by B', 'Skew Y']);
    expect((await names(b, { sortBy: 'modified_dt', sortOrder: 'asc' })).filter((n) => n.startsWith('Skew'))).toEqual(['Skew Y', 'Skew X by B', 'Skew Z']);
    // B hears of A's writes through LISTEN/NOTIFY, and of its own at once: in the order of the writes.
    await expect.poll(() => events.length, { timeout: 10_000 }).toBe(6);
    expect(events).toEqual([`customer ${x.body.id}`, `customer ${y.body.id}`, `customer ${x.body.id}`, `job ${job.body.id}`, `job ${job.body.id}`, `customer ${z.body.id}`]);
    stop();
  }, 60_000);

  it('refuses a request id sent again with another body, path or method (422, nothing run), and replays the same request through the other process', async () => {
    const headers = { [requestIdHeader]: 'pg-bound-1' };
    const first = await call(a, 'POST', '/customers', { ...ada, full_name: 'Bound One' }, headers);
    expect(first.status).toBe(200);
    const otherBody = await call(b, 'POST', '/customers', { ...ada, full_name: 'Bound Two' }, headers);
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.code).toBe('REQUEST_ID_REUSED');
    const otherPath = await call(b, 'PUT', `/customers/${first.body.id}`, { ...ada, full_name: 'Bound One' }, headers);
    expect(otherPath.status).toBe(422);
    expect((await names(a)).filter((n) => n.startsWith('Bound'))).toEqual(['Bound One']);
    const again = await call(b, 'POST', '/customers', { ...ada, full_name: 'Bound One' }, headers);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect((await names(a)).filter((n) => n.startsWith('Bound'))).toEqual(['Bound One']);
  }, 60_000);

  it('keeps the versions of a database made before migration 14, and makes every later one greater', async () => {
    const url = await pg.createDatabase('otto_before_14');
    const client = new pgDriver.Client({ connectionString: url });
    await client.connect();
    const ahead = clockA.now() + 10 * 3_600_000;
    try {
      await runPostgresMigrations(client, postgresMigrations.slice(0, 13));
      await client.query('INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES ($1, $2, $3, $4, $4)', ['Old', '555 0100', 'old@example.com', ahead]);
    } finally {
      await client.end();
    }
    const upgraded = await createPostgresApi({ connectionString: url, seed: false, now: clockB.now, logger: capturingLogger().logger });
    try {
      expect(upgraded.info.schemaVersion).toBe(postgresMigrations.length);
      const before = await call(upgraded, 'GET', '/customers/1');
      expect(before.etag).toBe(`"${ahead}"`);
      const after = await call(upgraded, 'PUT', '/customers/1', ada, { 'if-match': before.etag });
      expect(after.body.modified_dt).toBe(ahead + 1);
    } finally {
      await upgraded.close();
    }
  }, 60_000);

  it('forgets an answer older than the age bound: the same request then runs again', async () => {
    const headers = { [requestIdHeader]: 'pg-aged-1' };
    const first = await call(b, 'POST', '/customers', { ...ada, full_name: 'Aged' }, headers);
    clockB.advance(requestIdPolicy.maxAgeMs + 1);
    const later = await call(b, 'POST', '/customers', { ...ada, full_name: 'Aged' }, headers);
    expect(later.status).toBe(200);
    expect(later.body.id).not.toBe(first.body.id);
    expect((await names(a)).filter((n) => n === 'Aged')).toHaveLength(2);
  }, 60_000);
});
