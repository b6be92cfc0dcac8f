import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestPostgres } from '@otto/postgres-testing';
import { describeIfPostgres, sharedTestPostgres } from '@otto/postgres-testing/vitest';
import { createMockServer, type MockServer } from '../src/node';
import { capturingLogger } from './helpers';

/**
 * Many writers on one PostgreSQL server, over real HTTP: concurrent writes of the same row are
 * decided once (one 200, the other 409/412; forced to overlap on a row lock held by the test), a
 * burst of creates loses nothing and leaves the counters equal to a recount, and a write sent twice
 * under one request id runs once.
 */

const json = { 'content-type': 'application/json' };

interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

describeIfPostgres('otto-mock-server on PostgreSQL: many writers, nothing lost', () => {
  let pgServer: TestPostgres;
  let server: MockServer;
  let sql: pg.Client;
  const log = capturingLogger();

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...(body !== undefined ? json : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  async function createCustomer(name: string): Promise<{ id: string; modified_dt: number }> {
    const reply = await call('POST', '/customers', { full_name: name, email: `${name.replace(/\W/g, '').toLowerCase()}@example.com`, phone: '555 0100' });
    expect(reply.status, reply.text).toBe(200);
    return reply.body as { id: string; modified_dt: number };
  }

  async function createJob(customerId: string, title: string): Promise<{ id: string; status: string }> {
    const reply = await call('POST', '/jobs', { customer_id: customerId, title, status: 'quote', price_cents: 1000 });
    expect(reply.status, reply.text).toBe(200);
    return reply.body as { id: string; status: string };
  }

  /**
   * Holds the row's lock on a connection of its own (`SELECT … FOR UPDATE` in an open transaction),
   * sends both writes, waits until PostgreSQL shows both of them waiting for a lock (a handshake with
   * the database, no sleep: a write that does not wait answers instead, and fails the test), then
   * commits without changing the row and answers the two replies. Each write reads the row first:
   * when that read takes the row's lock, the second one reads what the first wrote; when it does not,
   * both read the same row and both act on it.
   */
  async function twoWritesOnAHeldRow(table: 'customers' | 'jobs', id: string, write: () => Promise<Reply>): Promise<Reply[]> {
    const holder = new pg.Client({ connectionString: pgServer.connectionString });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      const locked = await holder.query(`SELECT id FROM ${table} WHERE id = $1 FOR UPDATE`, [Number(id)]);
      expect(locked.rowCount).toBe(1);
      const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
      const answered: Reply[] = [];
      const writes = [write(), write()].map((p) => p.then((reply) => (answered.push(reply), reply)));
      const deadline = Date.now() + 30_000;
      let waiting: { pid: number; blocked_by: number[]; query: string }[] = [];
      for (;;) {
        waiting = (
          await sql.query<{ pid: number; blocked_by: number[]; query: string }>(
            `SELECT pid, pg_blocking_pids(pid) AS blocked_by, query FROM pg_stat_activity
              WHERE datname = current_database() AND pid <> pg_backend_pid() AND cardinality(pg_blocking_pids(pid)) > 0`,
          )
        ).rows;
        expect(answered, `answered while the test held the ${table} row's lock: ${answered.map((r) => `${r.status} ${r.text}`).join('; ')}`).toEqual([]);
        if (waiting.length === 2) break;
        if (Date.now() > deadline) throw new Error(`the two writes never both waited for the row lock; waiting: ${JSON.stringify(waiting)}`);
        await new Promise((resolve) => setImmediate(resolve));
      }
      // The first waits for the test's transaction; the second for the test's or the first's.
      expect(waiting.some((w) => w.blocked_by.includes(holderPid as number)), JSON.stringify(waiting)).toBe(true);
      expect(answered).toEqual([]);
      await holder.query('COMMIT');
      return await Promise.all(writes);
    } finally {
      await holder.end();
    }
  }

  beforeAll(async () => {
    pgServer = await sharedTestPostgres();
    server = await createMockServer({ port: 0, database: pgServer.connectionString, poolSize: 20, seed: { count: 30, fakerSeed: 3 }, logger: log.logger });
    sql = new pg.Client({ connectionString: pgServer.connectionString });
    await sql.connect();
  }, 120_000);
  afterAll(async () => {
    await sql?.end();
    await server?.close();
    await pgServer?.stop();
  });

  it('two concurrent moves of the same job to the same status: one 200, one 409, moved once (20 jobs at once)', async () => {
    const customer = await createCustomer('Mover Many');
    const jobs = await Promise.all(Array.from({ length: 20 }, (_, i) => createJob(customer.id, `Race job ${i}`)));
    const start = Date.UTC(2027, 0, 5, 9);
    const replies = await Promise.all(
      jobs.flatMap((job) => [0, 1].map(() => call('POST', `/jobs/${job.id}/move`, { status: 'scheduled', scheduled_start_dt: start }))),
    );
    for (let i = 0; i < jobs.length; i++) {
      const pair = [replies[2 * i] as Reply, replies[2 * i + 1] as Reply];
      const statuses = pair.map((r) => r.status).sort();
      expect(statuses, pair.map((r) => r.text).join('\n')).toEqual([200, 409]);
      const conflict = pair.find((r) => r.status === 409) as Reply;
      expect((conflict.body as { code: string }).code).toBe('CONFLICT');
    }
    const ids = jobs.map((j) => Number(j.id));
    // Moved once: one move row each (the revert log keeps the last one-click move), all scheduled.
    const rows = await sql.query<{ status: string; n: string }>('SELECT status, count(*) AS n FROM jobs WHERE id = ANY($1) GROUP BY status', [ids]);
    expect(rows.rows).toEqual([{ status: 'scheduled', n: '20' }]);
    const counts = (await call('GET', '/jobs/counts')).body as Record<string, number>;
    const recount = await sql.query<{ status: string; n: string }>('SELECT status, count(*) AS n FROM jobs WHERE archived_dt IS NULL GROUP BY status');
    for (const { status, n } of recount.rows) expect(counts[status], status).toBe(Number(n));
  }, 60_000);

  it('two PUTs of a customer with the same If-Match, made to overlap on its row lock: one 200, one 412', async () => {
    const customer = await createCustomer('Put Race');
    const etag = (await call('GET', `/customers/${customer.id}`)).headers.get('etag') as string;
    expect(etag).toMatch(/^"\d+"$/);
    let n = 0;
    const pair = await twoWritesOnAHeldRow('customers', customer.id, () =>
      call('PUT', `/customers/${customer.id}`, { full_name: `Put Race by ${++n}`, email: 'putrace@example.com', phone: '555 0101' }, { 'if-match': etag }),
    );
    expect(pair.map((r) => r.status).sort(), pair.map((r) => `${r.status} ${r.text}`).join('\n')).toEqual([200, 412]);
    const winner = pair.find((r) => r.status === 200)?.body as { full_name: string };
    const stored = (await call('GET', `/customers/${customer.id}`)).body as { full_name: string };
    expect(stored.full_name).toBe(winner.full_name);
  }, 60_000);

  it('two moves of a job to the same status, made to overlap on its row lock: one 200, one 409, moved once', async () => {
    const customer = await createCustomer('Mover Held');
    const job = await createJob(customer.id, 'Held race job');
    const pair = await twoWritesOnAHeldRow('jobs', job.id, () =>
      call('POST', `/jobs/${job.id}/move`, { status: 'scheduled', scheduled_start_dt: Date.UTC(2027, 0, 5, 9) }),
    );
    expect(pair.map((r) => r.status).sort(), pair.map((r) => `${r.status} ${r.text}`).join('\n')).toEqual([200, 409]);
    expect((pair.find((r) => r.status === 409)?.body as { code: string }).code).toBe('CONFLICT');
    const stored = (await call('GET', `/jobs/${job.id}`)).body as { status: string };
    expect(stored.status).toBe('scheduled');
  }, 60_000);

  it('a burst of 200 creates over 20 parallel requests: all 200, all present, counts exact', async () => {
    const before = await call('GET', '/customers?filterJson=' + encodeURIComponent(JSON.stringify({ limit: 1 })));
    const totalBefore = Number(before.headers.get('x-total-count'));
    const created: string[] = [];
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < 200) {
          const i = next++;
          const reply = await call('POST', '/customers', { full_name: `Burst Person ${i}`, email: `burst${i}@example.com`, phone: `555 ${1000 + i}` });
          statuses.push(reply.status);
          if (reply.status === 200) created.push((reply.body as { id: string }).id);
        }
      }),
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(new Set(created).size).toBe(200);
    const after = await call('GET', '/customers?filterJson=' + encodeURIComponent(JSON.stringify({ limit: 1000 })));
    expect(Number(after.headers.get('x-total-count'))).toBe(totalBefore + 200);
    const listed = new Set((after.body as { id: string }[]).map((c) => c.id));
    for (const id of created) expect(listed.has(id), id).toBe(true);
    const recount = Number((await sql.query<{ n: string }>('SELECT count(*) AS n FROM customers WHERE archived_dt IS NULL')).rows[0]?.n);
    expect(Number(after.headers.get('x-total-count'))).toBe(recount);
    const found = await call('GET', '/customers?filterJson=' + encodeURIComponent(JSON.stringify({ queryText: 'Burst Person', limit: 1000 })));
    expect(Number(found.headers.get('x-total-count'))).toBe(200);

    // A burst of job creates and moves at once: the counters stay equal to a recount.
    const owner = created[0] as string;
    let n = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (n < 100) {
          const i = n++;
          const job = await createJob(owner, `Burst job ${i}`);
          if (i % 2 === 0) {
            const moved = await call('POST', `/jobs/${job.id}/move`, { status: 'scheduled', scheduled_start_dt: Date.UTC(2027, 1, 1) });
            expect(moved.status, moved.text).toBe(200);
          }
        }
      }),
    );
    const counts = (await call('GET', '/jobs/counts')).body as Record<string, number>;
    const byStatus = await sql.query<{ status: string; n: string }>('SELECT status, count(*) AS n FROM jobs WHERE archived_dt IS NULL GROUP BY status');
    let all = 0;
    for (const { status, n: count } of byStatus.rows) {
      expect(counts[status], status).toBe(Number(count));
      all += Number(count);
    }
    expect(counts.all).toBe(all);
    const summary = await call('GET', '/reports/summary?filterJson=' + encodeURIComponent(JSON.stringify({ tz: 'UTC' })));
    expect(summary.status, summary.text).toBe(200);
    expect((summary.body as { jobs_by_status: unknown }).jobs_by_status).toEqual(counts);
    const owed = await sql.query<{ c: string; j: string }>('SELECT coalesce(sum(balance_cents), 0) AS c, coalesce(sum(job_count), 0) AS j FROM invoices WHERE voided_dt IS NULL AND balance_cents > 0');
    expect((summary.body as { owed: { total_cents: number; jobs: number } }).owed).toMatchObject({ total_cents: Number(owed.rows[0]?.c), jobs: Number(owed.rows[0]?.j) });
  }, 120_000);

  it('a write sent twice with the same x-otto-request-id runs once, one after the other and at once', async () => {
    const body = { full_name: 'Once Only', email: 'once@example.com', phone: '555 0199' };
    const first = await call('POST', '/customers', body, { 'x-otto-request-id': 'req-once-1' });
    const second = await call('POST', '/customers', body, { 'x-otto-request-id': 'req-once-1' });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    const rows = await sql.query<{ n: string }>("SELECT count(*) AS n FROM customers WHERE full_name = 'Once Only'");
    expect(Number(rows.rows[0]?.n)).toBe(1);

    // Sent at once (a relay retrying while the first is still running): still one run, one answer.
    for (let round = 0; round < 10; round++) {
      const name = `Twice At Once ${round}`;
      const replies = await Promise.all(
        [0, 1, 2].map(() => call('POST', '/customers', { full_name: name, email: `twice${round}@example.com`, phone: '555 0198' }, { 'x-otto-request-id': `req-at-once-${round}` })),
      );
      expect(replies.map((r) => r.status), replies.map((r) => r.text).join('\n')).toEqual([200, 200, 200]);
      expect(new Set(replies.map((r) => r.text)).size).toBe(1);
      const count = await sql.query<{ n: string }>('SELECT count(*) AS n FROM customers WHERE full_name = $1', [name]);
      expect(Number(count.rows[0]?.n)).toBe(1);
    }
  }, 60_000);
});
