// Counts kept until the data changes (decision 0152): a search's X-Total-Count is counted once per
// state of the data, and every write, however it is made, is counted in the next answer.
import { totalCountHeader } from '@otto/api-contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keptGet, keptResultsOf } from '../src/sql/kept-results';
import { createSqliteSqlStore } from '../src/sql/sqlite-sql-store';
import { startApi, type TestApi } from './helpers';

vi.setConfig({ testTimeout: 30_000 });

let t: TestApi;
afterEach(() => t.api.close());

const q = (filter: unknown) => `filterJson=${encodeURIComponent(JSON.stringify(filter))}`;

async function searchTotal(path: string, queryText: string, extra: object = {}): Promise<string | null> {
  const res = await t.call('GET', `/api/${path}?${q({ queryText, limit: 1, ...extra })}`);
  expect(res.status, res.text).toBe(200);
  return res.headers.get(totalCountHeader);
}

describe('kept search counts', () => {
  it('counts a customer search again after a write through the API, the store, or one rolled back', async () => {
    t = await startApi();
    for (let i = 0; i < 3; i++) expect((await t.call('POST', '/api/customers', { full_name: `Kept ${i}`, email: `kept${i}@example.com`, phone: '555 0100' })).status).toBe(200);
    expect(await searchTotal('customers', 'kept')).toBe('3');
    expect(await searchTotal('customers', 'kept', { offset: 1 })).toBe('3');
    const created = await t.call('POST', '/api/customers', { full_name: 'Kept 3', email: 'kept3@example.com', phone: '555 0100' });
    expect(await searchTotal('customers', 'kept')).toBe('4');
    // A write on the connection that does not go through the API.
    t.api.store.run("UPDATE customers SET full_name = 'Gone Away', email = 'gone@example.com' WHERE id = ?", [Number((created.json as { id: string }).id)]);
    expect(await searchTotal('customers', 'kept')).toBe('3');
    // A write rolled back still moves the stamp: counted again, and the same.
    t.api.store.exec("BEGIN; INSERT INTO customers (full_name, email, phone, created_dt, modified_dt) VALUES ('Kept 9', 'k9@example.com', '1', 1, 1); ROLLBACK");
    expect(await searchTotal('customers', 'kept')).toBe('3');
  });

  it('counts a job search, a status tab and the counts per status again after a move', async () => {
    t = await startApi();
    const customer = await t.call('POST', '/api/customers', { full_name: 'Ada', email: 'ada@example.com', phone: '555 0100' });
    const customerId = (customer.json as { id: string }).id;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const job = await t.call('POST', '/api/jobs', { customer_id: customerId, title: `Boiler service ${i}`, status: 'quote', price_cents: 100 });
      expect(job.status, job.text).toBe(200);
      ids.push((job.json as { id: string }).id);
    }
    expect(await searchTotal('jobs', 'boiler')).toBe('3');
    expect(await searchTotal('jobs', 'boiler', { status: 'scheduled' })).toBe('0');
    const counts = async () => (await t.call('GET', `/api/jobs/counts?${q({ queryText: 'boiler' })}`)).json as Record<string, number>;
    expect(await counts()).toMatchObject({ all: 3, quote: 3, scheduled: 0 });
    const job = await t.call('GET', `/api/jobs/${ids[0]}`);
    const moved = await t.call('PATCH', `/api/jobs/${ids[0]}`, { status: 'scheduled', scheduled_start_dt: Date.UTC(2026, 10, 30, 9) }, { headers: { 'content-type': 'application/json', 'if-match': job.headers.get('etag') ?? '' } });
    expect(moved.status, moved.text).toBe(200);
    expect(await searchTotal('jobs', 'boiler', { status: 'scheduled' })).toBe('1');
    expect(await counts()).toMatchObject({ all: 3, quote: 2, scheduled: 1 });
  });

  it('counts again on a database put in place of the last (a restore, a snapshot): a new connection whose counters start again', async () => {
    t = await startApi();
    // The same words in both files (the same search), three matches in one and one in the other.
    for (let i = 0; i < 3; i++) expect((await t.call('POST', '/api/customers', { full_name: 'Kept Same', email: `a${i}@example.com`, phone: '555 0100' })).status).toBe(200);
    const three = t.api.store.exportDatabase();
    t.api.store.run("DELETE FROM customers WHERE email IN ('a1@example.com', 'a2@example.com')");
    const one = t.api.store.exportDatabase();
    await t.api.store.replaceDatabase!(three);
    expect(await searchTotal('customers', 'kept')).toBe('3');
    // The next connection's counters are the same (nothing written on either since it opened).
    await t.api.store.replaceDatabase!(one);
    expect(await searchTotal('customers', 'kept')).toBe('1');
    await t.api.store.replaceDatabase!(three);
    expect(await searchTotal('customers', 'kept')).toBe('3');
  });

  it("reads the Overview's week and months again after a write: a job renamed in the week, a job paid this month", async () => {
    t = await startApi();
    const summary = async () => {
      const res = await t.call('GET', `/api/reports/summary?${q({ tz: 'America/New_York' })}`);
      expect(res.status, res.text).toBe(200);
      const body = res.json as { week: { days: { jobs: { title: string }[] }[] }; paid_per_month: { month: string; paid_cents: number; jobs: number }[] };
      return { titles: body.week.days.flatMap((d) => d.jobs.map((j) => j.title)), paid: body.paid_per_month.find((m) => m.month === '2026-10') };
    };
    const customer = await t.call('POST', '/api/customers', { full_name: 'Ada', email: 'ada@example.com', phone: '555 0100' });
    const customerId = (customer.json as { id: string }).id;
    // The clock stands at 2026-11-01 00:00 UTC: still October 31 in New York, a Saturday.
    const job = await t.call('POST', '/api/jobs', { customer_id: customerId, title: 'Boiler', status: 'scheduled', scheduled_start_dt: Date.UTC(2026, 9, 30, 15), price_cents: 100 });
    expect(job.status, job.text).toBe(200);
    expect(await summary()).toEqual({ titles: ['Boiler'], paid: expect.objectContaining({ paid_cents: 0, jobs: 0 }) });
    const id = (job.json as { id: string }).id;
    const patch = async (jobId: string, body: object) => {
      const etag = (await t.call('GET', `/api/jobs/${jobId}`)).headers.get('etag') ?? '';
      const res = await t.call('PATCH', `/api/jobs/${jobId}`, body, { headers: { 'content-type': 'application/json', 'if-match': etag } });
      expect(res.status, res.text).toBe(200);
    };
    await patch(id, { title: 'Boiler service' });
    expect((await summary()).titles).toEqual(['Boiler service']);
    // Paid at 00:00 UTC, in the month's last partial day in New York (read from the rows).
    const tap = await t.call('POST', '/api/jobs', { customer_id: customerId, title: 'Tap', status: 'scheduled', scheduled_start_dt: Date.UTC(2026, 8, 1), price_cents: 5000 });
    const tapId = (tap.json as { id: string }).id;
    for (const status of ['in_progress', 'completed', 'invoiced']) await patch(tapId, { status });
    expect((await summary()).paid).toEqual(expect.objectContaining({ paid_cents: 0, jobs: 0 }));
    await patch(tapId, { status: 'paid' });
    expect((await summary()).paid).toEqual(expect.objectContaining({ paid_cents: 5000, jobs: 1 }));
  });

  it('keeps nothing inside a write, and at most 64 results per connection', async () => {
    t = await startApi();
    const sql = createSqliteSqlStore(t.api.store);
    expect(await sql.transaction(async (db) => db.kept)).toBeUndefined();
    expect(await sql.transaction(async (db) => db.kept !== undefined, { readOnly: true })).toBe(true);
    const kept = keptResultsOf(t.api.store);
    let computed = 0;
    const compute = async () => ++computed;
    for (let i = 0; i < 65; i++) await kept.get('SELECT ?', [i], compute);
    expect(computed).toBe(65);
    await kept.get('SELECT ?', [64], compute); // the newest is still kept
    expect(computed).toBe(65);
    await kept.get('SELECT ?', [0], compute); // the oldest went
    expect(computed).toBe(66);
    // Without kept results (PostgreSQL, writes), every read runs.
    const n = await sql.transaction((db) => keptGet<{ n: number }>(db, 'SELECT 41 + 1 AS n', []));
    expect(n).toEqual({ n: 42 });
  });
});
