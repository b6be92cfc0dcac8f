// The job counters of migration 3 (decision 0020): the counts per status and every list total must
// stay exactly what counting the jobs gives, whatever happens to the jobs and their customers.
import { readFileSync } from 'node:fs';
import { jobCountsSchema, jobSchema, jobStatuses, totalCountHeader, type JobCounts } from '@otto/api-contract';
import { openSqliteStore, type SqliteStore } from '@otto/sqlite-store';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMockApi } from '../src/create-mock-api';
import { maxRankedMatches } from '../src/customers/customer-repository';
import { checkBackup } from '../src/database/check-backup';
import { startApi, type TestApi } from './helpers';

const fixture = (version: number) => new Uint8Array(readFileSync(new URL(`./fixtures/otto-v${version}.sqlite3`, import.meta.url)));
const filterJson = (filter: unknown) => `filterJson=${encodeURIComponent(JSON.stringify(filter))}`;

let t: TestApi | undefined;
afterEach(async () => {
  await t?.api.close();
  t = undefined;
});

/** Counts per status the slow, obvious way: every job joined to its customer. */
function countedByHand(store: SqliteStore, where = '', params: (string | number)[] = []): JobCounts {
  const counts = Object.fromEntries([['all', 0], ...jobStatuses.map((s) => [s, 0])]) as JobCounts;
  for (const row of store.all<{ status: keyof JobCounts; n: number }>(
    `SELECT j.status AS status, count(*) AS n FROM jobs j JOIN customers c ON c.id = j.customer_id ${where} GROUP BY j.status`,
    params,
  )) {
    counts[row.status] = row.n;
    counts.all += row.n;
  }
  return counts;
}

/** Checks the counts, every status tab's total and the list total against counting by hand. */
async function expectExact(api: TestApi['api'], filter: { customerId?: string; queryText?: string } = {}, where = '', params: (string | number)[] = []) {
  const get = (path: string) => api.fetch(new Request(`http://localhost${path}`));
  const expected = countedByHand(api.store, where, params);
  expect(jobCountsSchema.parse(await (await get(`/api/jobs/counts?${filterJson(filter)}`)).json())).toEqual(expected);
  expect((await get(`/api/jobs?${filterJson({ ...filter, limit: 1 })}`)).headers.get(totalCountHeader)).toBe(String(expected.all));
  for (const status of jobStatuses) {
    const res = await get(`/api/jobs?${filterJson({ ...filter, status, limit: 1 })}`);
    expect(res.headers.get(totalCountHeader), status).toBe(String(expected[status]));
  }
  expect(api.store.all('SELECT status, n FROM job_counts ORDER BY status')).toEqual(
    jobStatuses
      .map((status) => ({ status, n: countedByHand(api.store)[status] }))
      .sort((a, b) => (a.status < b.status ? -1 : 1)),
  );
}

describe('job counters', () => {
  it('stay exact through creates, status moves, edits, a job changing customer and a customer rename', async () => {
    t = await startApi();
    const api = t.api;
    const zoe = (await t.create({ full_name: 'Zoë Baker', email: 'zoe@example.com', phone: '1' })).json as { id: string };
    const ola = (await t.create({ full_name: 'Ola Nordmann', email: 'ola@example.no', phone: '2' })).json as { id: string };
    await expectExact(api);

    const created: string[] = [];
    for (const [customer, fields] of [
      [zoe, { title: 'Boiler service' }],
      [zoe, { title: 'Gutter cleaning', status: 'scheduled', scheduled_start_dt: 1000 }],
      [ola, { title: 'Fence repair' }],
      [ola, { title: 'Deck staining', status: 'scheduled', scheduled_start_dt: 2000 }],
    ] as const) {
      t.clock.advance();
      const res = await t.call('POST', '/api/jobs', { customer_id: customer.id, ...fields });
      created.push(jobSchema.parse(res.json).id);
    }
    await expectExact(api);

    const [boiler, gutter, fence, deck] = created as [string, string, string, string];
    await t.call('PATCH', `/api/jobs/${boiler}`, { status: 'cancelled' });
    await t.call('PATCH', `/api/jobs/${gutter}`, { status: 'in_progress' });
    await t.call('PATCH', `/api/jobs/${gutter}`, { status: 'completed' });
    await expectExact(api);
    // A refused move, a move that fails a rule, and a save that keeps the status change nothing.
    expect((await t.call('PATCH', `/api/jobs/${boiler}`, { status: 'paid' })).status).toBe(409);
    expect((await t.call('PATCH', `/api/jobs/${fence}`, { status: 'scheduled' })).status).toBe(400);
    await t.call('PATCH', `/api/jobs/${deck}`, { status: 'scheduled', title: 'Deck staining, two coats' });
    await t.call('PUT', `/api/jobs/${fence}`, { customer_id: zoe.id, title: 'Fence repair', status: 'quote' });
    await t.call('PATCH', `/api/jobs/${boiler}`, { status: 'quote' });
    await expectExact(api);
    await expectExact(api, { customerId: zoe.id }, 'WHERE j.customer_id = ?', [Number(zoe.id)]);

    await t.call('PUT', `/api/customers/${ola.id}`, { full_name: 'Ola Fernández', email: 'ola@example.no', phone: '2' });
    await expectExact(api);
    await expectExact(api, { queryText: 'fernandez' }, "JOIN jobs_fts f ON f.rowid = j.id WHERE jobs_fts MATCH 'fernandez'");
    await expectExact(api, { queryText: 'repair' }, "JOIN jobs_fts f ON f.rowid = j.id WHERE jobs_fts MATCH 'repair'");
    await expectExact(api, { queryText: 'baker' }, "JOIN jobs_fts f ON f.rowid = j.id WHERE jobs_fts MATCH 'baker'");
    // A title edit reaches both full-text indexes; a status move alone leaves the text as it was.
    await expectExact(api, { queryText: 'coats' }, "JOIN jobs_fts f ON f.rowid = j.id WHERE jobs_fts MATCH 'coats'");
    expect(countedByHand(api.store, "JOIN jobs_fts f ON f.rowid = j.id WHERE jobs_fts MATCH 'coats'").all).toBe(1);
    api.store.run("INSERT INTO jobs_fts (jobs_fts) VALUES ('integrity-check')");
    // The status-keyed index holds one row per job, under its current status.
    api.store.run("INSERT INTO jobs_status_fts (jobs_status_fts) VALUES ('integrity-check')");
    expect(api.store.all('SELECT rowid >> 40 AS k, rowid & 1099511627775 AS id FROM jobs_status_fts ORDER BY id')).toEqual(
      api.store.all('SELECT c.k AS k, j.id AS id FROM jobs j JOIN job_counts c ON c.status = j.status ORDER BY j.id'),
    );
  });

  it('match a seeded database, and the list keeps its order newest first, ties by id', async () => {
    const api = await createMockApi({ seed: { count: 60, fakerSeed: 7 }, now: () => Date.UTC(2026, 10, 1) });
    try {
      expect(api.info.seeded.jobs).toBeGreaterThan(60);
      await expectExact(api);
      const customerId = String(api.store.get<{ id: number }>('SELECT customer_id AS id FROM jobs LIMIT 1')?.id);
      await expectExact(api, { customerId }, 'WHERE j.customer_id = ?', [Number(customerId)]);
      for (const filter of [{}, { status: 'paid' }, { customerId }]) {
        const page = { limit: 7, offset: 3 };
        const res = await api.fetch(new Request(`http://localhost/api/jobs?${filterJson({ ...filter, ...page })}`));
        const ids = z.array(jobSchema).parse(await res.json()).map((j) => Number(j.id));
        const where = 'status' in filter ? "WHERE status = 'paid'" : 'customerId' in filter ? `WHERE customer_id = ${customerId}` : '';
        const expected = api.store.all<{ id: number }>(`SELECT id FROM jobs ${where} ORDER BY modified_dt DESC, id DESC LIMIT 7 OFFSET 3`);
        expect(ids).toEqual(expected.map((r) => r.id));
      }
    } finally {
      await api.close();
    }
  });

  for (const version of [1, 2, 3]) {
    it(`count the jobs of a restored backup of schema ${version}, and keep counting after it`, async () => {
      const store = await openSqliteStore({ storage: 'memory', initialData: fixture(version) });
      const api = await createMockApi({ store, now: () => Date.UTC(2026, 10, 2) });
      try {
        await expectExact(api);
        const customer = store.get<{ id: number }>('SELECT id FROM customers ORDER BY id LIMIT 1')?.id;
        await api.fetch(
          new Request('http://localhost/api/jobs', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ customer_id: String(customer), title: 'After the restore' }),
          }),
        );
        await expectExact(api);
      } finally {
        await api.close();
        await store.close();
      }
    });
  }

  it('refuse a backup holding a job whose customer is missing, in words', async () => {
    const store = await openSqliteStore({ storage: 'memory', initialData: fixture(2) });
    store.exec('PRAGMA foreign_keys = OFF');
    store.run("INSERT INTO jobs (customer_id, title, status, created_dt, modified_dt) VALUES (999, 'Orphan', 'quote', 1, 1)");
    const edited = store.exportDatabase();
    await store.close();
    await expect(checkBackup(edited)).rejects.toMatchObject({
      code: 'INVALID_DATABASE',
      message: expect.stringContaining('1 job whose customer is missing'),
    });
  });

  it('list a search matching more than maxRankedMatches jobs newest first, with exact totals per status, as for customers', async () => {
    t = await startApi();
    const customer = (await t.create({ full_name: 'Common Customer', email: 'c@example.com', phone: '1' })).json as { id: string };
    const count = maxRankedMatches + 5;
    t.api.store.transaction(() => {
      for (let i = 1; i <= count; i++) {
        t!.api.store.run("INSERT INTO jobs (customer_id, title, status, created_dt, modified_dt) VALUES (?, ?, ?, ?, ?)", [
          Number(customer.id),
          `Gutter repair ${i}`,
          i % 3 === 0 ? 'cancelled' : 'quote',
          i,
          count - i,
        ]);
      }
    });
    const ids = async (filter: Record<string, unknown>) =>
      z.array(jobSchema).parse((await t!.call('GET', `/api/jobs?${filterJson(filter)}`)).json).map((j) => Number(j.id));
    expect(await ids({ queryText: 'repair', limit: 5 })).toEqual([count, count - 1, count - 2, count - 3, count - 4]);
    expect(await ids({ queryText: 'repair', limit: 10, offset: count - 2 })).toEqual([2, 1]);
    // The status tab narrows it to 335 matches: ranked again (equal scores, so newest modified first).
    expect(await ids({ queryText: 'repair', status: 'cancelled', limit: 2 })).toEqual([3, 6]);
    await expectExact(t.api, { queryText: 'repair' }, "JOIN jobs_fts f ON f.rowid = j.id WHERE jobs_fts MATCH 'repair'");
    // 111 matches (7, 70–79, 700–799): ranked, then newest modified, then id.
    const ranked = t.api.store.all<{ id: number }>(
      `SELECT j.id FROM jobs_fts f JOIN jobs j ON j.id = f.rowid WHERE jobs_fts MATCH '"gutter"* "7"*'
       ORDER BY f.rank, j.modified_dt DESC, j.id DESC LIMIT 10 OFFSET 5`,
    );
    expect(await ids({ queryText: 'gutter 7', limit: 10, offset: 5 })).toEqual(ranked.map((r) => r.id));
    // A status tab with search text: the same ranking, over that status's matches only.
    const rankedTab = t.api.store.all<{ id: number }>(
      `SELECT j.id FROM jobs_fts f JOIN jobs j ON j.id = f.rowid WHERE jobs_fts MATCH '"gutter"* "7"*' AND j.status = 'cancelled'
       ORDER BY f.rank, j.modified_dt DESC, j.id DESC LIMIT 10 OFFSET 2`,
    );
    expect(rankedTab.length).toBeGreaterThan(5);
    expect(await ids({ queryText: 'gutter 7', status: 'cancelled', limit: 10, offset: 2 })).toEqual(rankedTab.map((r) => r.id));
    expect(await ids({ queryText: 'repair', status: 'quote', limit: 3, offset: 600 })).toEqual(
      t.api.store
        .all<{ id: number }>(
          `SELECT j.id FROM jobs_fts f JOIN jobs j ON j.id = f.rowid WHERE jobs_fts MATCH 'repair' AND j.status = 'quote'
           ORDER BY f.rank, j.modified_dt DESC, j.id DESC LIMIT 3 OFFSET 600`,
        )
        .map((r) => r.id),
    );
  });

  it('refuse a backup holding a job id Otto never gives, in words', async () => {
    const store = await openSqliteStore({ storage: 'memory', initialData: fixture(2) });
    const customer = store.get<{ id: number }>('SELECT id FROM customers LIMIT 1')?.id;
    store.run("INSERT INTO jobs (id, customer_id, title, status, created_dt, modified_dt) VALUES (?, ?, 'Huge', 'quote', 1, 1)", [2 ** 41, customer ?? 1]);
    const edited = store.exportDatabase();
    await store.close();
    await expect(checkBackup(edited)).rejects.toMatchObject({ code: 'INVALID_DATABASE', message: expect.stringContaining('id Otto never gives') });
  });
});
