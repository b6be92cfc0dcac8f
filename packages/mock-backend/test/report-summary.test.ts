// GET /api/reports/summary (decision 0080): every figure checked against numbers worked out by
// hand below, on data placed on month edges, DST changes and time-zone boundaries.
import { invoiceAges, jobSchema, reportSummarySchema, totalCountHeader, type JobStatus, type ReportSummary } from '@otto/api-contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startApi, type TestApi } from './helpers';
import { backfillInvoicesSql } from '../src/database/migrations/invoices-sql';

// Each test starts a backend on SQLite WASM: seconds on a loaded machine, so a generous limit.
vi.setConfig({ testTimeout: 30_000 });

let t: TestApi;
afterEach(() => t.api.close());

const utc = (iso: string) => Date.parse(iso);
const q = (filter: unknown) => `filterJson=${encodeURIComponent(JSON.stringify(filter))}`;

/** Monday 23 November 2026, 10:00 UTC (11:00 in Berlin). */
const now = utc('2026-11-23T10:00:00Z');

function addCustomer(name: string, createdIso: string): number {
  const created = utc(createdIso);
  return t.api.store.run('INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES (?, ?, ?, ?, ?)', [
    name,
    '555 0100',
    `${name.toLowerCase()}@example.com`,
    created,
    created,
  ]).lastInsertRowid;
}

function addJob(customerId: number, status: JobStatus, priceCents: number, dates: { paid?: string; start?: string } = {}): number {
  return t.api.store.run(
    `INSERT INTO jobs (customer_id, title, status, price_cents, created_dt, modified_dt, paid_dt, scheduled_start_dt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      customerId,
      `${status} ${priceCents}`,
      status,
      priceCents,
      utc('2024-01-01T00:00:00Z'),
      utc('2024-01-01T00:00:00Z'),
      dates.paid ? utc(dates.paid) : null,
      dates.start ? utc(dates.start) : null,
    ],
  ).lastInsertRowid;
}

/** The data every figure below is worked out from. */
async function business() {
  t = await startApi();
  t.clock.set(now);
  const ada = addCustomer('Ada', '2026-10-31T23:30:00Z'); // Berlin: 1 Nov 00:30; UTC: October
  const bo = addCustomer('Bo', '2026-10-31T22:59:59.999Z'); // Berlin: 31 Oct 23:59:59.999 (CET)
  const cy = addCustomer('Cy', '2025-11-15T12:00:00Z'); // before the 12 months up to November 2026
  const di = addCustomer('Di', '2026-03-31T22:00:00Z'); // Berlin: 1 Apr 00:00 (CEST)
  addCustomer('Ed', '2026-03-31T21:59:59.999Z'); // Berlin: 31 Mar 23:59:59.999
  const ids = {
    paidNovEdge: addJob(ada, 'paid', 12_345, { paid: '2026-10-31T23:00:00Z' }), // Berlin: 1 Nov 00:00 exactly
    paidOctEdge: addJob(ada, 'paid', 1, { paid: '2026-10-31T22:59:59.999Z' }), // Berlin: last ms of October
    paidLastYear: addJob(bo, 'paid', 99, { paid: '2025-11-10T12:00:00Z' }),
    paidJuneA: addJob(di, 'paid', 1_000_000_000, { paid: '2026-06-15T10:00:00Z' }),
    paidJuneB: addJob(di, 'paid', 1_000_000_000, { paid: '2026-06-30T21:59:59.999Z' }), // Berlin: 30 Jun 23:59:59.999
    paidJulyEdge: addJob(di, 'paid', 7, { paid: '2026-06-30T22:00:00Z' }), // Berlin: 1 Jul 00:00
    owedBo: addJob(bo, 'invoiced', 50_000),
    owedAda1: addJob(ada, 'invoiced', 20_001),
    owedAda2: addJob(ada, 'invoiced', 30_000),
    cancelled: addJob(cy, 'cancelled', 70_000),
    completed: addJob(cy, 'completed', 5_000),
    monday: addJob(bo, 'scheduled', 100, { start: '2026-11-23T08:00:00Z' }), // Berlin: Mon 09:00
    sundayLate: addJob(cy, 'in_progress', 200, { start: '2026-11-29T22:59:00Z' }), // Berlin: Sun 23:59
    nextMonday: addJob(ada, 'scheduled', 300, { start: '2026-11-29T23:00:00Z' }), // Berlin: Mon 30 Nov 00:00
    runningSinceFriday: addJob(ada, 'in_progress', 400, { start: '2026-11-20T09:00:00Z' }),
    quoteThisWeek: addJob(bo, 'quote', 500, { start: '2026-11-24T09:00:00Z' }),
    mondayEarly: addJob(di, 'scheduled', 600, { start: '2026-11-22T23:00:00Z' }), // Berlin: Mon 00:00
  };
  // Their invoices (and the paid ones' payments), as migration 18 gives jobs written before it.
  t.api.store.exec(backfillInvoicesSql('sqlite'));
  return { ada, bo, cy, di, ids };
}

/** The totals kept by triggers (migrations 8 and 9) equal counting the rows themselves. */
function expectDayTotalsExact() {
  const kept = (sql: string) => t.api.store.all(sql);
  expect(kept('SELECT day, cents, n FROM paid_days WHERE n != 0 OR cents != 0 ORDER BY day')).toEqual(
    kept(`SELECT paid_dt / 86400000 AS day, sum(price_cents) AS cents, count(*) AS n FROM jobs
          WHERE status = 'paid' AND paid_dt IS NOT NULL AND archived_dt IS NULL GROUP BY 1 ORDER BY 1`),
  );
  expect(kept('SELECT day, n FROM customer_days WHERE n != 0 ORDER BY day')).toEqual(
    kept('SELECT created_dt / 86400000 AS day, count(*) AS n FROM customers WHERE archived_dt IS NULL GROUP BY 1 ORDER BY 1'),
  );
}

/** Money owed counted from the rows: the balances of the invoices not void. */
function owedBySql(): number {
  return t.api.store.get<{ c: number }>('SELECT coalesce(sum(balance_cents), 0) AS c FROM invoices WHERE voided_dt IS NULL')!.c;
}

async function summary(filter: unknown): Promise<ReportSummary> {
  const res = await t.call('GET', `/api/reports/summary?${q(filter)}`);
  expect(res.status, res.text).toBe(200);
  return reportSummarySchema.parse(res.json);
}

const monthOf = (s: ReportSummary, month: string) => s.paid_per_month.find((m) => m.month === month);

describe('GET /api/reports/summary: paid per month', () => {
  it('sums paid jobs exactly per month of the time zone, with the same month a year earlier', async () => {
    await business();
    const s = await summary({ tz: 'Europe/Berlin' });
    expect(s.paid_per_month.map((m) => m.month)).toEqual([
      '2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11',
    ]);
    expect(monthOf(s, '2026-11')).toMatchObject({
      paid_cents: 12_345,
      jobs: 1,
      start_dt: utc('2026-10-31T23:00:00Z'),
      end_dt: utc('2026-11-30T23:00:00Z'),
      previous_year: { month: '2025-11', paid_cents: 99, jobs: 1, start_dt: utc('2025-10-31T23:00:00Z') },
    });
    expect(monthOf(s, '2026-10')).toMatchObject({ paid_cents: 1, jobs: 1, start_dt: utc('2026-09-30T22:00:00Z') });
    // Two of the largest prices: past 32 bits, still exact.
    expect(monthOf(s, '2026-06')).toMatchObject({ paid_cents: 2_000_000_000, jobs: 2 });
    expect(monthOf(s, '2026-07')).toMatchObject({ paid_cents: 7, jobs: 1 });
    const total = s.paid_per_month.reduce((sum, m) => sum + m.paid_cents, 0);
    expect(total).toBe(12_345 + 1 + 2_000_000_000 + 7); // cancelled, invoiced and completed jobs are not paid
  });

  it('moves the month edges with the time zone', async () => {
    await business();
    const utcSummary = await summary({ tz: 'UTC' });
    // In UTC the "1 Nov 00:00 Berlin" payment is still October.
    expect(monthOf(utcSummary, '2026-11')).toMatchObject({ paid_cents: 0, jobs: 0 });
    expect(monthOf(utcSummary, '2026-10')).toMatchObject({ paid_cents: 12_346, jobs: 2, start_dt: utc('2026-10-01T00:00:00Z') });
    expect(monthOf(utcSummary, '2026-06')).toMatchObject({ paid_cents: 2_000_000_007, jobs: 3 });
    const newYork = await summary({ tz: 'America/New_York' });
    expect(monthOf(newYork, '2026-11')?.start_dt).toBe(utc('2026-11-01T04:00:00Z')); // EDT until 1 Nov 02:00
    expect(monthOf(newYork, '2026-12')).toBeUndefined();
    expect(monthOf(newYork, '2026-10')).toMatchObject({ paid_cents: 12_346, jobs: 2 });
  });

  it('answers the months asked for, up to 36', async () => {
    await business();
    const s = await summary({ tz: 'Europe/Berlin', from: '2026-06', to: '2026-07' });
    expect(s.paid_per_month.map((m) => [m.month, m.paid_cents, m.previous_year.month])).toEqual([
      ['2026-06', 2_000_000_000, '2025-06'],
      ['2026-07', 7, '2025-07'],
    ]);
    const tooLong = await t.call('GET', `/api/reports/summary?${q({ tz: 'UTC', from: '2023-01', to: '2026-01' })}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.json).toMatchObject({ code: 'INVALID_PARAMS', issues: [{ path: 'to', message: 'A report covers at most 36 months.' }] });
  });
});

describe('GET /api/reports/summary: every zone, against the rows', () => {
  // A payment and a new customer every 3 h 17 min for two years, so every hour of every UTC day
  // is hit; zones whose months begin 30 or 45 minutes off the hour, far east and far west, and on
  // UTC midnight. Each month's figures must equal summing the rows inside its [start_dt, end_dt).
  it('sums each month exactly as the rows say, whatever the offset of the time zone', async () => {
    t = await startApi();
    t.clock.set(now);
    const step = (3 * 60 + 17) * 60_000;
    const rows: { at: number; cents: number }[] = [];
    for (let at = utc('2024-11-01T00:00:00Z'), i = 0; at < now; at += step, i++) {
      const id = addCustomer(`C${i}`, new Date(at).toISOString());
      addJob(id, 'paid', 100 + (i % 7), { paid: new Date(at).toISOString() });
      rows.push({ at, cents: 100 + (i % 7) });
    }
    for (const tz of ['UTC', 'Europe/London', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Pacific/Chatham', 'Pacific/Kiritimati', 'America/St_Johns']) {
      const s = await summary({ tz });
      for (const m of s.paid_per_month) {
        const inside = rows.filter((r) => r.at >= m.start_dt && r.at < m.end_dt);
        expect([tz, m.month, m.jobs, m.paid_cents]).toEqual([tz, m.month, inside.length, inside.reduce((sum, r) => sum + r.cents, 0)]);
      }
      for (const m of s.new_customers_per_month) {
        expect([tz, m.month, m.customers]).toEqual([tz, m.month, rows.filter((r) => r.at >= m.start_dt && r.at < m.end_dt).length]);
      }
    }
  });

  it('gives every day of the week its total and its first jobs in start order', async () => {
    const { ada } = await business();
    const starts: number[] = [];
    for (let i = 0; i < 90; i++) {
      const start = utc('2026-11-22T20:00:00Z') + i * 97 * 60_000;
      addJob(ada, i % 5 === 0 ? 'quote' : 'scheduled', i, { start: new Date(start).toISOString() });
      if (i % 5 !== 0) starts.push(start);
    }
    const s = await summary({ tz: 'Asia/Kolkata' });
    const open = t.api.store.all<{ start: number }>(
      `SELECT scheduled_start_dt AS start FROM jobs WHERE status IN ('scheduled', 'in_progress') AND archived_dt IS NULL AND scheduled_start_dt IS NOT NULL ORDER BY 1, id`,
    );
    for (const day of s.week.days) {
      const inside = open.filter((j) => j.start >= day.start_dt && j.start < day.end_dt);
      expect([day.date, day.total]).toEqual([day.date, inside.length]);
      expect(day.jobs.map((j) => j.scheduled_start_dt)).toEqual(inside.slice(0, 20).map((j) => j.start));
    }
    expect(s.week.days.reduce((n, d) => n + d.total, 0)).toBeGreaterThan(starts.length / 2);
  });
});

describe('GET /api/reports/summary: new customers, money owed, statuses', () => {
  it('counts new customers per month of the time zone', async () => {
    await business();
    const berlin = await summary({ tz: 'Europe/Berlin' });
    const count = (s: ReportSummary, month: string) => s.new_customers_per_month.find((m) => m.month === month)?.customers;
    expect(count(berlin, '2026-11')).toBe(1); // Ada
    expect(count(berlin, '2026-10')).toBe(1); // Bo
    expect(count(berlin, '2026-04')).toBe(1); // Di
    expect(count(berlin, '2026-03')).toBe(1); // Ed
    expect(berlin.new_customers_per_month.reduce((n, m) => n + m.customers, 0)).toBe(4); // Cy is older
    const inUtc = await summary({ tz: 'UTC' });
    expect(count(inUtc, '2026-11')).toBe(0);
    expect(count(inUtc, '2026-10')).toBe(2);
    expect(count(inUtc, '2026-03')).toBe(2);
  });

  it('totals invoiced, unpaid jobs and lists who owes the most', async () => {
    const { ada, bo } = await business();
    const s = await summary({ tz: 'Europe/Berlin' });
    expect(s.owed).toMatchObject({
      total_cents: 100_001,
      jobs: 3,
      invoices: 3,
      customers: [
        { customer_id: String(ada), customer_name: 'Ada', owed_cents: 50_001, jobs: 2 },
        { customer_id: String(bo), customer_name: 'Bo', owed_cents: 50_000, jobs: 1 },
      ],
    });
    expect(s.owed.total_cents).toBe(owedBySql());
    expect((await summary({ tz: 'UTC', topOwing: 1 })).owed.customers.map((c) => c.customer_name)).toEqual(['Ada']);
  });

  it('counts every job per status', async () => {
    await business();
    expect((await summary({ tz: 'UTC' })).jobs_by_status).toEqual({
      all: 17,
      quote: 1,
      scheduled: 3,
      in_progress: 2,
      completed: 1,
      invoiced: 3,
      paid: 6,
      cancelled: 1,
    });
  });

  it('follows the writes made through the API', async () => {
    const { bo } = await business();
    const created = jobSchema.parse((await t.call('POST', '/api/jobs', { customer_id: String(bo), title: 'Gutter', price_cents: 4_321 })).json);
    for (const status of ['scheduled', 'in_progress', 'completed', 'invoiced']) {
      t.clock.advance();
      const body = status === 'scheduled' ? { status, scheduled_start_dt: utc('2026-11-25T09:00:00Z') } : { status };
      expect((await t.call('PATCH', `/api/jobs/${created.id}`, body)).status).toBe(200);
    }
    expect((await summary({ tz: 'Europe/Berlin' })).owed).toMatchObject({ total_cents: 104_322, jobs: 4 });
    t.clock.advance();
    await t.call('PATCH', `/api/jobs/${created.id}`, { status: 'paid' });
    const s = await summary({ tz: 'Europe/Berlin' });
    expect(s.owed).toMatchObject({ total_cents: 100_001, jobs: 3 });
    expect(s.owed.total_cents).toBe(owedBySql());
    expect(monthOf(s, '2026-11')).toMatchObject({ paid_cents: 12_345 + 4_321, jobs: 2 });
    expectDayTotalsExact();
    // A price corrected on a paid job, a job deleted, a customer's creation date changed: still exact.
    t.api.store.run('UPDATE jobs SET price_cents = price_cents + 5 WHERE id = ?', [Number(created.id)]);
    t.api.store.run('DELETE FROM jobs WHERE id = (SELECT min(id) FROM jobs WHERE status = ?)', ['paid']);
    t.api.store.run('UPDATE customers SET created_dt = created_dt - 86400000 * 40 WHERE id = ?', [bo]);
    expectDayTotalsExact();
    // An invoice moved to another customer, repriced, then archived and restored.
    const invoice = t.api.store.get<{ id: number }>("SELECT id FROM jobs WHERE status = 'invoiced' ORDER BY id LIMIT 1")!.id;
    t.api.store.run('UPDATE jobs SET customer_id = ?, price_cents = price_cents + 7 WHERE id = ?', [bo, invoice]);
    expectDayTotalsExact();
    expect((await t.call('POST', `/api/jobs/${invoice}/archive`)).status).toBe(200);
    expectDayTotalsExact();
    t.api.store.run('UPDATE jobs SET archived_dt = NULL WHERE id = ?', [invoice]);
    expectDayTotalsExact();
  });
});

describe('GET /api/reports/summary: archived records', () => {
  it('leaves archived jobs and customers out of every figure, as lists and counts do', async () => {
    const { ada, ids } = await business();
    for (const id of [ids.owedAda1, ids.paidJuneA, ids.monday]) {
      expect((await t.call('POST', `/api/jobs/${id}/archive`)).status).toBe(200);
    }
    expect((await t.call('POST', `/api/customers/${ada}/archive`)).status).toBe(200);
    const s = await summary({ tz: 'Europe/Berlin' });
    // Money owed is the open invoices' (decision 0161): archiving a job or its customer does not
    // make what was invoiced less owed.
    expect(s.owed).toMatchObject({ total_cents: 100_001, jobs: 3 });
    expect(monthOf(s, '2026-06')).toMatchObject({ paid_cents: 1_000_000_000, jobs: 1 });
    expect(s.week.days[0]?.jobs.map((j) => j.id)).toEqual([String(ids.mondayEarly)]);
    expect(s.new_customers_per_month.find((m) => m.month === '2026-11')?.customers).toBe(0);
    expect(s.jobs_by_status).toMatchObject({ all: 14, invoiced: 2, paid: 5, scheduled: 2 });
    expectDayTotalsExact();
  });
});

describe('GET /api/reports/summary: this week', () => {
  it('lists scheduled and in-progress jobs on the day they start, in the time zone', async () => {
    const { ids } = await business();
    const s = await summary({ tz: 'Europe/Berlin' });
    expect(s.week.start).toBe('2026-11-23');
    expect(s.week.days.map((d) => d.date)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']);
    expect(s.week.days[0]).toMatchObject({ start_dt: utc('2026-11-22T23:00:00Z'), end_dt: utc('2026-11-23T23:00:00Z'), total: 2 });
    expect(s.week.days[0]?.jobs.map((j) => j.id)).toEqual([String(ids.mondayEarly), String(ids.monday)]);
    expect(s.week.days[0]?.jobs[1]).toMatchObject({ title: 'scheduled 100', status: 'scheduled', customer_name: 'Bo', price_cents: 100 });
    expect(s.week.days[6]?.jobs.map((j) => j.id)).toEqual([String(ids.sundayLate)]);
    // The quote on Tuesday is not scheduled; the job on Monday 30th is next week.
    expect(s.week.days.slice(1, 6).every((d) => d.total === 0 && d.jobs.length === 0)).toBe(true);
    expect(s.week.before).toBe(1); // in progress since Friday
  });

  it('takes this week from the clock in the time zone: Monday, ISO weeks', async () => {
    await business();
    t.clock.set(utc('2026-11-23T05:00:00Z')); // Los Angeles: Sunday 22 November, 21:00
    expect((await summary({ tz: 'America/Los_Angeles' })).week.start).toBe('2026-11-16');
    expect((await summary({ tz: 'Europe/Berlin' })).week.start).toBe('2026-11-23');
    const la = await summary({ tz: 'America/Los_Angeles', weekStart: '2026-11-23' });
    // Los Angeles: the Berlin-Monday-00:00 job starts Sunday 15:00 there, before this week.
    expect(la.week.days[0]?.jobs.map((j) => j.title)).toEqual(['scheduled 100']);
    expect(la.week.days[6]?.jobs.map((j) => j.title)).toEqual(['in_progress 200', 'scheduled 300']);
  });

  it('gives a day its true length across a DST change', async () => {
    await business();
    const spring = await summary({ tz: 'Europe/Berlin', weekStart: '2026-03-23' });
    const sunday = spring.week.days[6];
    expect(sunday).toMatchObject({ date: '2026-03-29', start_dt: utc('2026-03-28T23:00:00Z'), end_dt: utc('2026-03-29T22:00:00Z') });
    const autumn = await summary({ tz: 'Europe/Berlin', weekStart: '2026-10-19' });
    expect(autumn.week.days[6]).toMatchObject({ date: '2026-10-25', start_dt: utc('2026-10-24T22:00:00Z'), end_dt: utc('2026-10-25T23:00:00Z') });
  });

  it('lists at most 20 jobs a day and still gives the day its total', async () => {
    const { ada } = await business();
    for (let i = 0; i < 25; i++) addJob(ada, 'scheduled', i, { start: `2026-11-25T10:${String(i).padStart(2, '0')}:00Z` });
    const day = (await summary({ tz: 'Europe/Berlin' })).week.days[2];
    expect(day?.total).toBe(25);
    expect(day?.jobs.map((j) => j.price_cents)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});

describe('GET /api/reports/summary: bad input', () => {
  it('answers 400 in words for a missing or unknown time zone and bad months or days', async () => {
    await business();
    const cases: [string, string][] = [
      ['', 'tz'],
      [q({}), 'tz'],
      [q({ tz: 'Mars/Olympus' }), 'tz'],
      [q({ tz: 42 }), 'tz'],
      [q({ tz: 'UTC', from: '2026-13', to: '2026-12' }), 'from'],
      [q({ tz: 'UTC', from: '2026-01' }), 'to'],
      [q({ tz: 'UTC', from: '2026-05', to: '2026-04' }), 'to'],
      [q({ tz: 'UTC', weekStart: '2026-02-30' }), 'weekStart'],
      [q({ tz: 'UTC', topOwing: 0 }), 'topOwing'],
      ['filterJson=%7Bnot-json', 'filterJson'],
    ];
    for (const [query, path] of cases) {
      const res = await t.call('GET', `/api/reports/summary?${query}`);
      expect(res.status, query).toBe(400);
      const body = res.json as { code: string; message: string; issues: { path: string; message: string }[] };
      expect(body.code).toBe('INVALID_PARAMS');
      expect(body.issues.map((i) => i.path), query).toContain(path);
      expect(body.issues.every((i) => i.message.length > 10)).toBe(true);
    }
  });

  it('answers an empty business with zeros', async () => {
    t = await startApi();
    const s = await summary({ tz: 'Pacific/Auckland' });
    expect(s.owed).toEqual({
      total_cents: 0,
      jobs: 0,
      invoices: 0,
      customers: [],
      by_age: invoiceAges.map((age) => ({ age, owed_cents: 0, invoices: 0 })),
      overdue: { owed_cents: 0, invoices: 0 },
    });
    expect(s.paid_per_month).toHaveLength(12);
    expect(s.paid_per_month.every((m) => m.paid_cents === 0 && m.previous_year.paid_cents === 0)).toBe(true);
    expect(s.jobs_by_status.all).toBe(0);
    expect(s.week.days.every((d) => d.jobs.length === 0)).toBe(true);
  });
});

describe('GET /api/jobs still open from before a day', () => {
  it("lists and counts exactly the Overview's jobs from before this week (openBefore)", async () => {
    await business();
    const s = await summary({ tz: 'Europe/Berlin' });
    const filter = { openBefore: s.week.days[0]?.start_dt };
    const list = await t.call('GET', `/api/jobs?${q(filter)}`);
    expect(list.headers.get(totalCountHeader)).toBe(String(s.week.before));
    const jobs = list.json as { status: string; scheduled_start_dt: number }[];
    expect(jobs.length).toBe(s.week.before);
    expect(jobs.every((j) => ['scheduled', 'in_progress'].includes(j.status) && j.scheduled_start_dt < filter.openBefore!)).toBe(true);
    const counts = await t.call('GET', `/api/jobs/counts?${q(filter)}`);
    expect(counts.json).toMatchObject({ all: s.week.before, quote: 0, paid: 0 });
    expect((await t.call('GET', `/api/jobs?${q({ openBefore: 'Monday' })}`)).status).toBe(400);
  });
});

describe('GET /api/jobs paid in a month', () => {
  it('lists and counts the jobs paid in [paidFrom, paidBefore), as a bar of the chart links', async () => {
    const { ids } = await business();
    const bar = monthOf(await summary({ tz: 'Europe/Berlin' }), '2026-06');
    const filter = { status: 'paid', paidFrom: bar?.start_dt, paidBefore: bar?.end_dt };
    const list = await t.call('GET', `/api/jobs?${q(filter)}`);
    expect(list.headers.get(totalCountHeader)).toBe('2');
    expect((list.json as { id: string }[]).map((j) => j.id).sort()).toEqual([String(ids.paidJuneA), String(ids.paidJuneB)].sort());
    const counts = await t.call('GET', `/api/jobs/counts?${q(filter)}`);
    expect(counts.json).toMatchObject({ all: 2, paid: 2, invoiced: 0 });
    const searched = await t.call('GET', `/api/jobs?${q({ ...filter, queryText: 'paid' })}`);
    expect(searched.headers.get(totalCountHeader)).toBe('2');
    const bad = await t.call('GET', `/api/jobs?${q({ paidFrom: 'June' })}`);
    expect(bad.status).toBe(400);
  });
});
