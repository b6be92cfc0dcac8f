import { customerSchema, jobSchema, jobStatuses, totalCountHeader, type Customer, type Job } from '@otto/api-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startApi, type TestApi } from './helpers';

const customers = z.array(customerSchema);
const jobs = z.array(jobSchema);
let t: TestApi;
afterEach(() => t.api.close());

// Generous: the WASM start-up alone takes seconds on a busy machine (no timed assertion here).
const slow = 60_000;
const listJobs = (filter: unknown) => t.call('GET', `/api/jobs?filterJson=${encodeURIComponent(JSON.stringify(filter))}`);
const byName = (a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);

/** Every row of a sorted list, read a page of 7 at a time (pages must join up without gaps). */
async function allPages<T>(read: (offset: number) => Promise<{ json: unknown; headers: Headers }>, schema: z.ZodType<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (;;) {
    const res = await read(rows.length);
    const page = schema.parse(res.json);
    rows.push(...page);
    if (page.length === 0 || rows.length >= Number(res.headers.get(totalCountHeader))) return rows;
  }
}

describe('sorted customer lists', () => {
  it('sorts by name (ignoring case), created and modified, both ways, paging without gaps', async () => {
    t = await startApi({ seed: { count: 40, fakerSeed: 11, jobs: false } });
    await t.create({ full_name: 'aaron lowercase', email: 'aaron@example.com', phone: '555 0001' });
    const read = (sortBy: string, sortOrder?: string) =>
      allPages<Customer>((offset) => t.list({ sortBy, ...(sortOrder ? { sortOrder } : {}), limit: 7, offset }), customers);

    const names = await read('full_name');
    expect(names).toHaveLength(41);
    expect(names.map((c) => c.full_name)).toEqual(names.map((c) => c.full_name).sort(byName));
    expect((await read('full_name', 'desc')).map((c) => c.id)).toEqual(names.map((c) => c.id).reverse());

    const created = await read('created_dt');
    expect(created.map((c) => c.created_dt)).toEqual(created.map((c) => c.created_dt).sort((a, b) => b - a));
    const createdAsc = await read('created_dt', 'asc');
    expect(createdAsc.map((c) => c.id)).toEqual(created.map((c) => c.id).reverse());

    const modifiedAsc = await read('modified_dt', 'asc');
    expect(modifiedAsc.map((c) => c.modified_dt)).toEqual(modifiedAsc.map((c) => c.modified_dt).sort((a, b) => a - b));
  }, slow);

  it('orders only the matches of a search, and keeps the default order and total without sortBy', async () => {
    t = await startApi({ seed: { count: 0 } });
    for (const name of ['Cleo Smith', 'anna Smith', 'Bert Smith', 'Dora Jones']) {
      await t.create({ full_name: name, email: `${name.replace(' ', '.')}@example.com`, phone: '555 0002' });
    }
    const sorted = await t.list({ queryText: 'smith', sortBy: 'full_name' });
    expect(customers.parse(sorted.json).map((c) => c.full_name)).toEqual(['anna Smith', 'Bert Smith', 'Cleo Smith']);
    expect(sorted.headers.get(totalCountHeader)).toBe('3');
    const plain = await t.list({});
    expect(customers.parse(plain.json).map((c) => c.full_name)).toEqual(['Dora Jones', 'Bert Smith', 'anna Smith', 'Cleo Smith']);
    expect(plain.headers.get(totalCountHeader)).toBe('4');
  }, slow);

  it('ignores and logs a filterJson whose sortBy or sortOrder is not one it knows (the spec rule for filterJson)', async () => {
    t = await startApi({ seed: { count: 12, fakerSeed: 2, jobs: false } });
    const expected = (await t.list()).json;
    for (const filter of [{ sortBy: 'phone' }, { sortBy: 'full_name', sortOrder: 'up' }, { sortBy: 5 }]) {
      const res = await t.list(filter);
      expect(res.status).toBe(200);
      expect(res.json, JSON.stringify(filter)).toEqual(expected);
    }
    expect(t.log.lines.filter((l) => l.startsWith('[otto] Invalid filterJson param'))).toHaveLength(3);
  }, slow);

  it('answers every page exactly, whichever end of the index it is read from (pages in the back half are read backwards)', async () => {
    t = await startApi({ seed: { count: 30, fakerSeed: 5, jobs: false } });
    // Archived customers are in the table but not the list: they must not shift a page read from the end.
    for (const id of ['3', '17', '29']) expect((await t.call('POST', `/api/customers/${id}/archive`)).status).toBe(200);
    for (const filter of [{}, { sortBy: 'full_name' }, { sortBy: 'full_name', sortOrder: 'desc' }, { sortBy: 'created_dt', sortOrder: 'asc' }]) {
      const all = customers.parse((await t.list({ ...filter, limit: 100 })).json).map((c) => c.id);
      expect(all).toHaveLength(27);
      for (const limit of [1, 7, 10]) {
        for (let offset = 0; offset <= all.length + 2; offset++) {
          const res = await t.list({ ...filter, limit, offset });
          expect(customers.parse(res.json).map((c) => c.id), JSON.stringify({ ...filter, limit, offset })).toEqual(all.slice(offset, offset + limit));
          expect(res.headers.get(totalCountHeader)).toBe('27');
        }
      }
    }
  }, slow);

  it('reads every customer order off an index (no sort of every row)', async () => {
    t = await startApi({ seed: { count: 5, fakerSeed: 2, jobs: false } });
    for (const order of ['full_name COLLATE NOCASE ASC, id ASC', 'created_dt DESC, id DESC', 'modified_dt ASC, id ASC']) {
      const plan = t.api.store.all<{ detail: string }>(`EXPLAIN QUERY PLAN SELECT id FROM customers WHERE archived_dt IS NULL ORDER BY ${order} LIMIT 10 OFFSET 50`);
      expect(plan.map((p) => p.detail).join('; '), order).not.toMatch(/TEMP B-TREE/);
    }
  }, slow);
});

describe('sorted job lists', () => {
  it('sorts by title, price, scheduled date (unscheduled last both ways), status and modified', async () => {
    t = await startApi({ seed: { count: 30, fakerSeed: 5 } });
    const read = (sortBy: string, sortOrder?: string, extra: object = {}) =>
      allPages<Job>((offset) => listJobs({ ...extra, sortBy, ...(sortOrder ? { sortOrder } : {}), limit: 7, offset }), jobs);

    const titles = await read('title');
    expect(titles.length).toBeGreaterThan(20);
    expect(titles.map((j) => j.title)).toEqual(titles.map((j) => j.title).sort(byName));

    const prices = await read('price_cents');
    expect(prices.map((j) => j.price_cents)).toEqual(prices.map((j) => j.price_cents).sort((a, b) => b - a));
    expect((await read('price_cents', 'asc')).map((j) => j.id)).toEqual(prices.map((j) => j.id).reverse());

    for (const sortOrder of ['asc', 'desc']) {
      const scheduled = (await read('scheduled_start_dt', sortOrder)).map((j) => j.scheduled_start_dt);
      const dated = scheduled.filter((s): s is number => s !== null);
      expect(dated.length).toBeGreaterThan(0);
      expect(scheduled.slice(0, dated.length)).toEqual([...dated].sort((a, b) => (sortOrder === 'asc' ? a - b : b - a)));
      expect(scheduled.slice(dated.length).every((s) => s === null)).toBe(true);
    }

    const statuses = (await read('status')).map((j) => jobStatuses.indexOf(j.status));
    expect(statuses).toEqual([...statuses].sort((a, b) => a - b));

    const inTab = await read('price_cents', 'asc', { status: 'paid' });
    expect(inTab.every((j) => j.status === 'paid')).toBe(true);
    expect(inTab.map((j) => j.price_cents)).toEqual(inTab.map((j) => j.price_cents).sort((a, b) => a - b));
  }, slow);

  it('answers 400 for a sortBy the job list does not know, like the rest of its filter', async () => {
    t = await startApi({ seed: { count: 3, fakerSeed: 5 } });
    for (const filter of [{ sortBy: 'customer_name' }, { sortBy: 'title', sortOrder: 'sideways' }]) {
      const res = await listJobs(filter);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: 'INVALID_PARAMS' });
    }
  }, slow);

  it('reads every job order off an index (no sort of every row)', async () => {
    t = await startApi({ seed: { count: 5, fakerSeed: 2 } });
    const rank = `CASE j.status ${jobStatuses.map((s, i) => `WHEN '${s}' THEN ${i}`).join(' ')} END`;
    for (const order of [
      'j.title COLLATE NOCASE DESC, j.id DESC',
      'j.price_cents ASC, j.id ASC',
      '(j.scheduled_start_dt IS NULL), j.scheduled_start_dt, j.id',
      'j.scheduled_start_dt DESC, j.id DESC',
      `${rank}, j.modified_dt DESC, j.id DESC`,
      `${rank} DESC, j.modified_dt, j.id`,
    ]) {
      const plan = t.api.store.all<{ detail: string }>(`EXPLAIN QUERY PLAN SELECT j.id FROM jobs j WHERE j.archived_dt IS NULL ORDER BY ${order} LIMIT 10 OFFSET 50`);
      expect(plan.map((p) => p.detail).join('; '), order).not.toMatch(/TEMP B-TREE/);
    }
  }, slow);
});
