import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestPostgres } from '@otto/postgres-testing';
import { describeIfPostgres, sharedTestPostgres } from '@otto/postgres-testing/vitest';
import { createMockApi } from '../src/create-mock-api';
import { exportSeedData, type SeedData } from '../src/database/seed-data';
import { createPostgresApi, type PostgresApi } from '../src/postgres/create-postgres-api';
import type { MockApi } from '../src/types';
import { capturingLogger } from './helpers';

/**
 * Same data, same questions, same answers: a SQLite API and a PostgreSQL API seeded with the same
 * seed data answer every search with the same rows and X-Total-Count, and every sorted (and the
 * default) list in the same order.
 */

const T = Date.UTC(2026, 10, 1, 12);
const now = () => T;

/** Customers with accents, apostrophes, dashes and other scripts, created the same way on both. */
const extraCustomers = [
  { full_name: 'Zoë Ångström', email: 'zoe.angstrom@café-example.com', phone: '+1 (555) 010-4477' },
  { full_name: "Seán O'Brien", email: 'sean.obrien@acme-corp.example', phone: '555-0188' },
  { full_name: 'José Núñez', email: 'jose@nunez.example', phone: '555.321.9876' },
  { full_name: 'Łukasz Żółć', email: 'lukasz@zolc.example', phone: '48 555 123 456' },
  { full_name: 'Straße Müller', email: 'strasse@muller.example', phone: '49 5551 2345' },
  { full_name: 'İsmail Çelik', email: 'ismail@celik.example', phone: '90 555 1111' },
  { full_name: 'Ὀδυσσεύς Λαέρτιος', email: 'odysseus@ithaca.example', phone: '30 555 0001' },
  { full_name: '中文 名字', email: 'zh@example.com', phone: '86 555 8888' },
  { full_name: 'Anne-Marie DUPONT', email: 'anne-marie.dupont@example.fr', phone: '33 1 55 55 01 02' },
  { full_name: 'Ærøskøbing Ørsted', email: 'orsted@example.dk', phone: '45 5555 0000' },
];

const hostile = ["O'Brien", 'acme-corp', 'AND', 'OR', 'NOT', 'NEAR(a b)', '"', '""', '*', '(', ')', '^', ':', '-', '+', 'a"b*',
  'col:term', '😀', "'; DROP TABLE customers; --", '\\', '%', '_', '{}', '[', '\u0000', '\u202e', 'ß', 'İstanbul', '中文'];

interface Api {
  fetch(request: Request): Promise<Response>;
}

async function list(api: Api, path: string, filter: object): Promise<{ status: number; ids: string[]; total: string | null; text: string }> {
  const res = await api.fetch(new Request(`http://localhost/api${path}?filterJson=${encodeURIComponent(JSON.stringify(filter))}`));
  const text = await res.text();
  const body = res.status === 200 ? (JSON.parse(text) as { id: string }[]) : [];
  return { status: res.status, ids: body.map((r) => r.id), total: res.headers.get('x-total-count'), text };
}

describeIfPostgres('SQLite and PostgreSQL give the same answers', () => {
  let pg: TestPostgres;
  let sqlite: MockApi;
  let postgres: PostgresApi;
  let data: SeedData;
  beforeAll(async () => {
    const maker = await createMockApi({ seed: { count: 300, fakerSeed: 7 }, now, logger: capturingLogger().logger });
    data = exportSeedData(maker.store, T);
    await maker.close();
    pg = await sharedTestPostgres();
    sqlite = await createMockApi({ seed: { data }, now, logger: capturingLogger().logger });
    postgres = await createPostgresApi({ connectionString: pg.connectionString, seed: { data }, now, logger: capturingLogger().logger });
    for (const api of [sqlite, postgres] as Api[]) {
      for (const customer of extraCustomers) {
        const res = await api.fetch(new Request('http://localhost/api/customers', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(customer) }));
        expect(res.status, await res.clone().text()).toBe(200);
      }
    }
  }, 120_000);
  afterAll(async () => {
    await postgres?.close();
    await sqlite?.close();
    await pg?.stop();
  });

  /** Query texts drawn from the seed data and the extra customers, plus the hostile ones. */
  function queries(): string[] {
    const names = data.customers.columns.indexOf('full_name');
    const emails = data.customers.columns.indexOf('email');
    const phones = data.customers.columns.indexOf('phone');
    const titles = data.jobs.columns.indexOf('title');
    const out = new Set<string>(['555', '5551', '555-01', '(555)', '+1 555', '0100', '4477', '010-4477', '555 0188', '321 9876', 'a', 'e', 'ma', 'mar',
      'zoe', 'Zoë', 'ZOË', 'angstrom', 'ångström', 'sean', 'seán', "o'b", "O'Brien", 'obrien', 'o brien', 'nunez', 'núñez', 'Jose Nunez', 'lukasz', 'łukasz',
      'zolc', 'żółć', 'strasse', 'straße', 'strass', 'muller', 'müller', 'ismail', 'İsmail', 'istanbul', 'celik', 'çelik', 'οδυσσευς', 'Ὀδυσσεύς', 'λαερτιος',
      'ΛΑΈΡΤΙΟΣ', '中文', '名字', 'anne-marie', 'anne marie', 'dupont', 'ørsted', 'orsted', 'aeroskobing', 'ærøskøbing', 'café', 'cafe', 'example', 'example.com',
      'acme-corp.example', '@example', 'zh@example.com', ...hostile]);
    for (let i = 0; i < 25; i++) {
      const row = data.customers.rows[i * 11] as unknown[];
      const name = String(row[names]);
      const [first = '', last = ''] = name.split(' ');
      out.add(name).add(first).add(last).add(first.slice(0, 3)).add(`${first.slice(0, 2)} ${last.slice(0, 2)}`).add(name.toUpperCase());
      const email = String(row[emails]);
      out.add(email).add(email.split('@')[0] as string).add(email.split('@')[1] as string);
      const phone = String(row[phones]);
      out.add(phone).add(phone.replace(/\D/g, '').slice(-4)).add(phone.replace(/\D/g, '').slice(2, 7)).add(phone.slice(0, 7));
    }
    for (let i = 0; i < 15; i++) {
      const title = String((data.jobs.rows[(i * 37) % data.jobs.rows.length] as unknown[])[titles]);
      out.add(title).add(title.split(' ')[0] as string).add(title.slice(0, 4));
    }
    return [...out];
  }

  it('customer searches find the same customers, with the same X-Total-Count', async () => {
    const differ: string[] = [];
    let finding = 0;
    for (const queryText of queries()) {
      const filter = { queryText, limit: 1000 };
      const [a, b] = await Promise.all([list(sqlite, '/customers', filter), list(postgres, '/customers', filter)]);
      expect(a.status, `${JSON.stringify(queryText)} on SQLite: ${a.text}`).toBe(200);
      expect(b.status, `${JSON.stringify(queryText)} on PostgreSQL: ${b.text}`).toBe(200);
      const sa = [...a.ids].sort();
      const sb = [...b.ids].sort();
      if (JSON.stringify(sa) !== JSON.stringify(sb) || a.total !== b.total) {
        differ.push(`${JSON.stringify(queryText)}: SQLite ${a.total} [${sa.slice(0, 8).join(',')}…] PostgreSQL ${b.total} [${sb.slice(0, 8).join(',')}…]`);
      }
      if (a.ids.length > 0) finding++;
    }
    expect(differ).toEqual([]);
    // The questions are real ones: most of them find someone.
    expect(finding).toBeGreaterThan(100);
  }, 120_000);

  it('job searches find the same jobs, with the same X-Total-Count (also with a status)', async () => {
    const differ: string[] = [];
    for (const queryText of queries()) {
      for (const extra of [{}, { status: 'scheduled' }]) {
        const filter = { queryText, limit: 1000, ...extra };
        const [a, b] = await Promise.all([list(sqlite, '/jobs', filter), list(postgres, '/jobs', filter)]);
        expect(a.status, `${JSON.stringify(queryText)} on SQLite: ${a.text}`).toBe(200);
        expect(b.status, `${JSON.stringify(queryText)} on PostgreSQL: ${b.text}`).toBe(200);
        const sa = [...a.ids].sort();
        const sb = [...b.ids].sort();
        if (JSON.stringify(sa) !== JSON.stringify(sb) || a.total !== b.total) {
          differ.push(`${JSON.stringify(filter)}: SQLite ${a.total} PostgreSQL ${b.total}`);
        }
      }
    }
    expect(differ).toEqual([]);
  }, 120_000);

  it('sorted and default lists come in the same order', async () => {
    const cases: [string, object][] = [
      ['/customers', {}],
      ['/customers', { sortBy: 'full_name', sortOrder: 'asc' }],
      ['/customers', { sortBy: 'full_name', sortOrder: 'desc' }],
      ['/customers', { sortBy: 'created_dt', sortOrder: 'asc' }],
      ['/customers', { sortBy: 'created_dt', sortOrder: 'desc' }],
      ['/customers', { queryText: 'a', sortBy: 'full_name', sortOrder: 'asc' }],
      ['/customers', { queryText: 'a', sortBy: 'full_name', sortOrder: 'desc' }],
      ['/customers', { queryText: '555', sortBy: 'created_dt', sortOrder: 'desc' }],
      ['/jobs', {}],
      ['/jobs', { status: 'paid' }],
    ];
    for (const by of ['title', 'price_cents', 'scheduled_start_dt', 'status']) {
      for (const sortOrder of ['asc', 'desc']) {
        cases.push(['/jobs', { sortBy: by, sortOrder }], ['/jobs', { sortBy: by, sortOrder, queryText: 'e' }]);
      }
    }
    const differ: string[] = [];
    for (const [path, filter] of cases) {
      for (const page of [{ limit: 1000 }, { limit: 25, offset: 50 }]) {
        const f = { ...filter, ...page };
        const [a, b] = await Promise.all([list(sqlite, path, f), list(postgres, path, f)]);
        expect(a.status, a.text).toBe(200);
        expect(b.status, b.text).toBe(200);
        if (JSON.stringify(a.ids) !== JSON.stringify(b.ids) || a.total !== b.total) {
          const at = a.ids.findIndex((id, i) => b.ids[i] !== id);
          differ.push(`${path} ${JSON.stringify(f)}: first difference at ${at}: SQLite ${a.ids.slice(at, at + 4).join(',')} PostgreSQL ${b.ids.slice(at, at + 4).join(',')} (totals ${a.total}/${b.total})`);
        }
      }
    }
    expect(differ).toEqual([]);
  }, 120_000);

  it('the schedule and the unscheduled list are the same (issue 39)', async () => {
    const differ: string[] = [];
    let scheduled = 0;
    for (const [start, days, tz, perCell] of [['2026-10-19', 7, 'UTC', 2], ['2026-10-29', 1, 'Europe/Berlin', 50], ['2026-11-03', 7, 'Asia/Kolkata', 6], ['2026-09-21', 42, 'America/New_York', 3]] as const) {
      const path = `http://localhost/api/jobs/schedule?filterJson=${encodeURIComponent(JSON.stringify({ tz, start, days, perCell }))}`;
      const [a, b] = await Promise.all([sqlite.fetch(new Request(path)), postgres.fetch(new Request(path))]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const [ta, tb] = [await a.text(), await b.text()];
      if (ta !== tb) differ.push(`schedule from ${start} for ${days} days in ${tz}`);
      scheduled += (JSON.parse(ta) as { jobs: unknown[] }).jobs.length;
    }
    for (const page of [{ limit: 1000 }, { limit: 5, offset: 5 }]) {
      const f = { unscheduled: true, ...page };
      const [a, b] = await Promise.all([list(sqlite, '/jobs', f), list(postgres, '/jobs', f)]);
      if (JSON.stringify(a.ids) !== JSON.stringify(b.ids) || a.total !== b.total) differ.push(`unscheduled ${JSON.stringify(page)}`);
      expect(Number(a.total)).toBeGreaterThan(0);
    }
    expect(differ).toEqual([]);
    expect(scheduled).toBeGreaterThan(0);
  }, 60_000);

  it("the invoices the seed's invoiced and paid jobs got are the same, in every filter (issue 39)", async () => {
    const differ: string[] = [];
    let listed = 0;
    for (const filter of [{ limit: 1000 }, { status: 'open', limit: 50 }, { status: 'paid', limit: 7, offset: 3 }, { status: 'overdue', tz: 'Europe/Berlin' },
      ...['0-30', '31-60', '61-90', '90+'].map((age) => ({ age, tz: 'Asia/Kolkata', limit: 100 }))]) {
      const path = `http://localhost/api/invoices?filterJson=${encodeURIComponent(JSON.stringify(filter))}`;
      const [a, b] = await Promise.all([sqlite.fetch(new Request(path)), postgres.fetch(new Request(path))]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const [ta, tb] = [await a.text(), await b.text()];
      if (ta !== tb || a.headers.get('x-total-count') !== b.headers.get('x-total-count')) differ.push(JSON.stringify(filter));
      listed += (JSON.parse(ta) as unknown[]).length;
    }
    expect(differ).toEqual([]);
    expect(listed).toBeGreaterThan(100);
  }, 60_000);

  it('the Overview\'s summary is the same, in every time zone and week', async () => {
    const differ: string[] = [];
    let weekJobs = 0;
    for (const tz of ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham']) {
      for (const weekStart of [undefined, '2026-10-26', '2026-11-02']) {
        const path = `http://localhost/api/reports/summary?filterJson=${encodeURIComponent(JSON.stringify({ tz, weekStart }))}`;
        const [a, b] = await Promise.all([sqlite.fetch(new Request(path)), postgres.fetch(new Request(path))]);
        expect([a.status, b.status]).toEqual([200, 200]);
        const [ja, jb] = [await a.text(), await b.text()];
        if (ja !== jb) differ.push(`${tz} ${weekStart ?? 'this week'}`);
        weekJobs += (JSON.parse(ja) as { week: { days: { total: number }[] } }).week.days.reduce((n, d) => n + d.total, 0);
      }
    }
    expect(differ).toEqual([]);
    expect(weekJobs).toBeGreaterThan(0);
  }, 60_000);

  it('a search without a sort lists best matches first by each engine\'s own score: same rows, order may differ (decision 0112)', async () => {
    // Deliberate difference: SQLite ranks with FTS5's bm25, PostgreSQL with ts_rank; neither can
    // compute the other's score, so only the set (and the total) of a relevance-ordered list is
    // the same. Every explicit sort, and every list without search text, is the same order (above).
    let orderDiffers = 0;
    for (const [path, queryText] of [['/customers', 'a'], ['/customers', '555'], ['/jobs', 'a'], ['/jobs', 'e']] as const) {
      const filter = { queryText, limit: 1000 };
      const [a, b] = await Promise.all([list(sqlite, path, filter), list(postgres, path, filter)]);
      expect([...b.ids].sort(), `${path} ${queryText}`).toEqual([...a.ids].sort());
      expect(b.total).toBe(a.total);
      if (JSON.stringify(a.ids) !== JSON.stringify(b.ids)) orderDiffers++;
    }
    // Documents the difference: when it disappears (a bm25 on PostgreSQL), make the order test above cover it.
    expect(orderDiffers).toBeGreaterThan(0);
  }, 60_000);
});
