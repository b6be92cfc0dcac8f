import {
  jobCountsSchema,
  jobSchema,
  jobStatuses,
  jobTransitions,
  limits,
  scheduleSchema,
  totalCountHeader,
  type Job,
  type JobStatus,
} from '@otto/api-contract';
import { openSqliteStore } from '@otto/sqlite-store';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMockApi } from '../src/create-mock-api';
import { latestSchemaVersion, migrations } from '../src/database/migrations';
import { startApi, type TestApi } from './helpers';

let t: TestApi;
afterEach(() => t.api.close());

async function withCustomer() {
  t = await startApi();
  const customer = (await t.create({ full_name: 'Zoë Baker', email: 'zoe@example.com', phone: '555 0100' })).json as {
    id: string;
  };
  const createJob = async (fields: Record<string, unknown> = {}) => {
    t.clock.advance();
    return t.call('POST', '/api/jobs', { customer_id: customer.id, title: 'Boiler service', ...fields });
  };
  return { customerId: customer.id, createJob };
}

/** Puts a job in a status directly, as setup for a move. */
function forceStatus(id: string, status: JobStatus) {
  t.api.store.run('UPDATE jobs SET status = ?, scheduled_start_dt = 1000, scheduled_end_dt = 2000 WHERE id = ?', [status, Number(id)]);
}

const listJobs = (filter: unknown) => t.call('GET', `/api/jobs?filterJson=${encodeURIComponent(JSON.stringify(filter))}`);

describe('POST /api/jobs', () => {
  it('creates a quote with defaults and stamps when it was quoted', async () => {
    const { customerId, createJob } = await withCustomer();
    const res = await createJob();
    expect(res.status).toBe(200);
    const job = jobSchema.parse(res.json);
    expect(job).toMatchObject({
      customer_id: customerId,
      customer_name: 'Zoë Baker',
      title: 'Boiler service',
      description: '',
      service_address: '',
      status: 'quote',
      assignee: '',
      scheduled_start_dt: null,
      scheduled_end_dt: null,
      price_cents: 0,
      created_dt: t.clock.now(),
      modified_dt: t.clock.now(),
    });
    expect(job.status_dates).toEqual({ ...Object.fromEntries(jobStatuses.map((s) => [s, null])), quote: t.clock.now() });
  });

  it('creates a scheduled job when it has a start time', async () => {
    const { createJob } = await withCustomer();
    const res = await createJob({ status: 'scheduled', scheduled_start_dt: 5000, scheduled_end_dt: 9000, price_cents: 12500 });
    expect(res.json).toMatchObject({ status: 'scheduled', scheduled_start_dt: 5000, price_cents: 12500 });
    expect((res.json as Job).status_dates.scheduled).toBe(t.clock.now());
  });

  it('answers 400 naming the field for every broken rule', async () => {
    const { createJob } = await withCustomer();
    const cases: [Record<string, unknown>, string][] = [
      [{ title: undefined }, 'title'],
      [{ title: '   ' }, 'title'],
      [{ title: 'x'.repeat(121) }, 'title'],
      [{ title: 42 }, 'title'],
      [{ description: 'x'.repeat(4001) }, 'description'],
      [{ service_address: 'x'.repeat(301) }, 'service_address'],
      [{ assignee: 'x'.repeat(121) }, 'assignee'],
      [{ price_cents: -1 }, 'price_cents'],
      [{ price_cents: 10.5 }, 'price_cents'],
      [{ price_cents: '100' }, 'price_cents'],
      [{ price_cents: 1e12 }, 'price_cents'],
      [{ scheduled_start_dt: 'tomorrow' }, 'scheduled_start_dt'],
      [{ scheduled_start_dt: 2000, scheduled_end_dt: 1000 }, 'scheduled_end_dt'],
      [{ scheduled_end_dt: 1000 }, 'scheduled_start_dt'],
      [{ status: 'done' }, 'status'],
      [{ status: 'paid' }, 'status'],
      [{ status: 'in_progress', scheduled_start_dt: 1 }, 'status'],
      [{ status: 'scheduled' }, 'scheduled_start_dt'],
      [{ customer_id: '999' }, 'customer_id'],
      [{ customer_id: 'abc' }, 'customer_id'],
      [{ customer_id: 7 }, 'customer_id'],
    ];
    for (const [fields, path] of cases) {
      const res = await createJob(fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.json, JSON.stringify(fields)).toMatchObject({
        code: 'VALIDATION_FAILED',
        issues: expect.arrayContaining([expect.objectContaining({ path })]),
      });
    }
    expect(t.api.store.get('SELECT count(*) AS n FROM jobs')).toEqual({ n: 0 });
  });

  it('answers 400 for a body that is not JSON or not an object', async () => {
    await withCustomer();
    expect((await t.call('POST', '/api/jobs', '{oops')).json).toMatchObject({ code: 'INVALID_JSON' });
    expect((await t.call('POST', '/api/jobs', '[]')).status).toBe(400);
    expect((await t.call('POST', '/api/jobs', 'null')).status).toBe(400);
  });
});

describe('GET /api/jobs/{id}', () => {
  it('returns the job, and 404 with a JSON error when there is none', async () => {
    const { createJob } = await withCustomer();
    const job = jobSchema.parse((await createJob()).json);
    expect((await t.call('GET', `/api/jobs/${job.id}`)).json).toEqual(job);
    for (const id of ['999', 'abc']) {
      const res = await t.call('GET', `/api/jobs/${id}`);
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await t.call('PATCH', '/api/jobs/999', { title: 'x' })).status).toBe(404);
  });
});

describe('status moves', () => {
  for (const from of jobStatuses) {
    for (const to of jobTransitions[from]) {
      it(`allows ${from} → ${to} and stamps when it happened`, async () => {
        const { createJob } = await withCustomer();
        // A price: a job with none is paid as soon as it is invoiced (decision 0161).
        const job = jobSchema.parse((await createJob({ price_cents: 5_000 })).json);
        forceStatus(job.id, from);
        t.clock.advance(60_000);
        const res = await t.call('PATCH', `/api/jobs/${job.id}`, { status: to });
        expect(res.status).toBe(200);
        expect(res.json).toMatchObject({ status: to, modified_dt: t.clock.now() });
        expect((res.json as Job).status_dates[to]).toBe(t.clock.now());
      });
    }
    const forbidden = jobStatuses.filter((to) => to !== from && !jobTransitions[from].includes(to));
    it(`forbids ${from} → ${forbidden.join(', ')} with 409 naming the allowed moves`, async () => {
      const { createJob } = await withCustomer();
      const job = jobSchema.parse((await createJob()).json);
      forceStatus(job.id, from);
      const before = (await t.call('GET', `/api/jobs/${job.id}`)).json;
      expect(forbidden.length).toBeGreaterThan(0);
      for (const to of forbidden) {
        const res = await t.call('PATCH', `/api/jobs/${job.id}`, { status: to });
        expect(res.status, `${from} → ${to}`).toBe(409);
        expect(res.json).toMatchObject({ code: 'CONFLICT', allowed: [...jobTransitions[from]] });
      }
      expect((await t.call('GET', `/api/jobs/${job.id}`)).json).toEqual(before);
    });
  }

  it('needs a start time to schedule a quote', async () => {
    const { createJob } = await withCustomer();
    const job = jobSchema.parse((await createJob()).json);
    const bare = await t.call('PATCH', `/api/jobs/${job.id}`, { status: 'scheduled' });
    expect(bare.status).toBe(400);
    expect(bare.json).toMatchObject({ issues: [{ path: 'scheduled_start_dt', message: 'A scheduled job needs a start time.' }] });
    const ok = await t.call('PATCH', `/api/jobs/${job.id}`, { status: 'scheduled', scheduled_start_dt: 10_000 });
    expect(ok.json).toMatchObject({ status: 'scheduled', scheduled_start_dt: 10_000 });
  });

  it('keeps the status date when the status stays the same', async () => {
    const { createJob } = await withCustomer();
    const job = jobSchema.parse((await createJob()).json);
    t.clock.advance(5000);
    const res = await t.call('PATCH', `/api/jobs/${job.id}`, { status: 'quote', title: 'Boiler repair' });
    expect(res.json).toMatchObject({ title: 'Boiler repair', status_dates: { quote: job.status_dates.quote } });
  });
});

describe('PUT and PATCH /api/jobs/{id}', () => {
  it('PUT replaces every field; PATCH changes only what it names', async () => {
    const { createJob, customerId } = await withCustomer();
    const job = jobSchema.parse((await createJob({ description: 'Annual', assignee: 'Sam', price_cents: 9000 })).json);
    const patched = await t.call('PATCH', `/api/jobs/${job.id}`, { price_cents: 9500 });
    expect(patched.json).toMatchObject({ description: 'Annual', assignee: 'Sam', price_cents: 9500 });
    const put = await t.call('PUT', `/api/jobs/${job.id}`, { customer_id: customerId, title: 'New title' });
    expect(put.json).toMatchObject({ title: 'New title', description: '', assignee: '', price_cents: 0 });
  });

  it('moves a job to another existing customer only', async () => {
    const { createJob } = await withCustomer();
    const other = (await t.create({ full_name: 'Al Other', email: 'al@example.com', phone: '1' })).json as { id: string };
    const job = jobSchema.parse((await createJob()).json);
    expect((await t.call('PATCH', `/api/jobs/${job.id}`, { customer_id: '12345' })).status).toBe(400);
    expect((await t.call('PATCH', `/api/jobs/${job.id}`, { customer_id: other.id })).json).toMatchObject({
      customer_id: other.id,
      customer_name: 'Al Other',
    });
  });
});

describe('GET /api/jobs and /api/jobs/counts', () => {
  it('filters by status, customer and search text, with totals and counts per status', async () => {
    const { createJob, customerId } = await withCustomer();
    const other = (await t.create({ full_name: 'Ola Nordmann', email: 'ola@example.no', phone: '2' })).json as { id: string };
    await createJob({ title: 'Gutter cleaning', service_address: '12 Rue de la Paix, Paris' });
    await createJob({ title: 'Boiler service', status: 'scheduled', scheduled_start_dt: 1 });
    await createJob({ customer_id: other.id, title: 'Fence repair', description: 'Storm damage on the east side' });
    const titles = async (filter: unknown) => z.array(jobSchema).parse((await listJobs(filter)).json).map((j) => j.title);

    expect(await titles({})).toEqual(['Fence repair', 'Boiler service', 'Gutter cleaning']);
    expect(await titles({ status: 'scheduled' })).toEqual(['Boiler service']);
    expect(await titles({ customerId })).toEqual(['Boiler service', 'Gutter cleaning']);
    expect(await titles({ customerId: 'nope' })).toEqual([]);
    expect(await titles({ queryText: 'gutt' })).toEqual(['Gutter cleaning']);
    expect(await titles({ queryText: 'paix' })).toEqual(['Gutter cleaning']);
    expect(await titles({ queryText: 'storm east' })).toEqual(['Fence repair']);
    expect(await titles({ queryText: 'zoe' })).toEqual(['Boiler service', 'Gutter cleaning']);
    expect(await titles({ queryText: 'ola', status: 'quote' })).toEqual(['Fence repair']);
    expect((await listJobs({ limit: 1 })).headers.get(totalCountHeader)).toBe('3');

    const counts = jobCountsSchema.parse((await t.call('GET', '/api/jobs/counts')).json);
    expect(counts).toMatchObject({ all: 3, quote: 2, scheduled: 1, paid: 0 });
    const forZoe = (await t.call('GET', `/api/jobs/counts?filterJson=${encodeURIComponent(JSON.stringify({ customerId, status: 'paid' }))}`)).json;
    expect(forZoe).toMatchObject({ all: 2, quote: 1, scheduled: 1 });
  });

  it('searches a word as a prefix while a longer word starts with it, and as itself once none does', async () => {
    const { createJob } = await withCustomer();
    await createJob({ title: 'Pipe fix' });
    await createJob({ title: 'Pipes replaced', status: 'scheduled', scheduled_start_dt: 1 });
    const found = async (filter: Record<string, unknown>) => {
      const res = await listJobs(filter);
      const counts = jobCountsSchema.parse((await t.call('GET', `/api/jobs/counts?filterJson=${encodeURIComponent(JSON.stringify(filter))}`)).json);
      return { titles: z.array(jobSchema).parse(res.json).map((j) => j.title).sort(), total: res.headers.get(totalCountHeader), all: counts.all };
    };
    // "pipe" is also the start of "pipes": both jobs, in the list, its total and the counts.
    expect(await found({ queryText: 'pipe' })).toEqual({ titles: ['Pipe fix', 'Pipes replaced'], total: '2', all: 2 });
    expect(await found({ queryText: 'pipe', status: 'scheduled' })).toEqual({ titles: ['Pipes replaced'], total: '1', all: 2 });
    // "pipes" starts no longer word: searched as the word itself, with the same meaning.
    expect(await found({ queryText: 'pipes' })).toEqual({ titles: ['Pipes replaced'], total: '1', all: 1 });
    expect(await found({ queryText: 'fix' })).toEqual({ titles: ['Pipe fix'], total: '1', all: 1 });
    expect(await found({ queryText: 'fi' })).toEqual({ titles: ['Pipe fix'], total: '1', all: 1 });
  });

  it('finds jobs by the customer name after the customer is renamed', async () => {
    const { createJob, customerId } = await withCustomer();
    await createJob();
    await t.call('PUT', `/api/customers/${customerId}`, { full_name: 'Zoë Fernández', email: 'zoe@example.com', phone: '555' });
    expect((await listJobs({ queryText: 'fernandez' })).headers.get(totalCountHeader)).toBe('1');
    expect((await listJobs({ queryText: 'baker' })).headers.get(totalCountHeader)).toBe('0');
    t.api.store.run("INSERT INTO jobs_fts (jobs_fts) VALUES ('integrity-check')");
  });

  it('answers 400 for a job filter it cannot read, instead of widening the list', async () => {
    const { customerId } = await withCustomer();
    for (const raw of ['{oops', JSON.stringify({ customerId, status: 'bogus' }), JSON.stringify({ customerId: 7 })]) {
      const res = await t.call('GET', `/api/jobs?filterJson=${encodeURIComponent(raw)}`);
      expect(res.status, raw).toBe(400);
      expect(res.json).toMatchObject({ code: 'INVALID_PARAMS' });
      expect((await t.call('GET', `/api/jobs/counts?filterJson=${encodeURIComponent(raw)}`)).status).toBe(400);
    }
  });

  it('survives hostile search text and answers 400 for out-of-range paging', async () => {
    await withCustomer();
    for (const queryText of ['"', '*', "O'Brien", 'AND', '(', '😀', 'a"b*']) {
      expect((await listJobs({ queryText })).status, queryText).toBe(200);
    }
    expect((await listJobs({ limit: 0 })).status).toBe(400);
  });
});

describe('GET /api/jobs/schedule and the unscheduled list (issue 39)', () => {
  const hour = 3_600_000;
  const day = 24 * hour;
  const monday = Date.UTC(2026, 10, 23);
  const schedule = (filter: unknown) => t.call('GET', `/api/jobs/schedule?filterJson=${encodeURIComponent(JSON.stringify(filter))}`);
  const titlesOf = (res: { json: unknown }) => scheduleSchema.parse(res.json).jobs.map((j) => j.title);

  it('lists the jobs on the calendar in the range, earliest first, with the ones running into it', async () => {
    const { createJob } = await withCustomer();
    const at = (title: string, start: number, end: number | null, fields: Record<string, unknown> = {}) =>
      createJob({ title, status: 'scheduled', scheduled_start_dt: start, scheduled_end_dt: end, ...fields });
    await at('Tuesday at nine', monday + day + 9 * hour, monday + day + 11 * hour);
    await at('Monday at eight', monday + 8 * hour, null);
    await at('Three days from Saturday', monday - 2 * day, monday + day);
    await at('Ended Sunday', monday - day, monday);
    await at('Next Monday', monday + 7 * day, monday + 7 * day + hour);
    await at('Began 20 days before', monday - 20 * day, monday + day);
    const cancelled = (await at('Cancelled Wednesday', monday + 2 * day, null)).json as { id: string };
    await t.call('POST', `/api/jobs/${cancelled.id}/move`, { status: 'cancelled' });
    const archived = (await at('Archived Wednesday', monday + 2 * day, null)).json as { id: string };
    await t.call('POST', `/api/jobs/${archived.id}/archive`);
    await createJob({ title: 'A quote with no date' });

    const week = await schedule({ tz: 'UTC', start: '2026-11-23', days: 7 });
    expect(week.status).toBe(200);
    expect(titlesOf(week)).toEqual(['Three days from Saturday', 'Monday at eight', 'Tuesday at nine']);
    const answer = scheduleSchema.parse(week.json);
    expect(answer).toMatchObject({ truncated: false, assignees: [], more: [] });
    expect(answer.days.map((d) => d.date)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']);
    expect(answer.days[0]).toEqual({ date: '2026-11-23', start_dt: monday, end_dt: monday + day });
    expect(titlesOf(await schedule({ tz: 'UTC', start: '2026-11-24', days: 1 }))).toEqual(['Tuesday at nine']);
    // The days of a time zone: Tuesday in Auckland (UTC+13) runs from 11:00 UTC on Monday, after
    // Monday at eight (21:00 there), to 11:00 UTC on Tuesday.
    expect(titlesOf(await schedule({ tz: 'Pacific/Auckland', start: '2026-11-24', days: 1 }))).toEqual(['Three days from Saturday', 'Tuesday at nine']);
  });

  it('answers 400 for a missing time zone, day or length, or one out of range', async () => {
    await withCustomer();
    const ok = { tz: 'UTC', start: '2026-11-23', days: 7 };
    for (const filter of [{}, { ...ok, tz: 'Mars/Olympus' }, { ...ok, start: '2026-02-30' }, { ...ok, days: 0 }, { ...ok, days: 43 }, { ...ok, perCell: 51 }, { tz: 'UTC', start: '2026-11-23' }]) {
      const res = await schedule(filter);
      expect(res.status, JSON.stringify(filter)).toBe(400);
      expect(res.json).toMatchObject({ code: 'INVALID_PARAMS' });
    }
    expect((await t.call('GET', '/api/jobs/schedule')).status).toBe(400);
  });

  it('answers at most perCell jobs per person per day, earliest first, and counts the rest', async () => {
    const { customerId } = await withCustomer();
    const add = (n: number, assignee: string, start: number) =>
      t.api.store.run(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO jobs (customer_id, title, status, assignee, scheduled_start_dt, created_dt, modified_dt, scheduled_dt)
         SELECT ?, ? || ' ' || i, 'scheduled', ?, ? + i * 60000, 1, 1, 1 FROM n`,
        [n, Number(customerId), assignee, assignee, start],
      );
    add(9, 'Sam', monday + 8 * hour);
    add(3, 'Bo', monday + 8 * hour);
    add(8, 'Sam', monday + day + 8 * hour);
    const answer = scheduleSchema.parse((await schedule({ tz: 'UTC', start: '2026-11-23', days: 2, perCell: 4 })).json);
    const titles = answer.jobs.map((j) => j.title);
    expect(titles.filter((x) => x.startsWith('Sam'))).toEqual(['Sam 1', 'Sam 2', 'Sam 3', 'Sam 4', 'Sam 1', 'Sam 2', 'Sam 3', 'Sam 4']);
    expect(titles.filter((x) => x.startsWith('Bo'))).toEqual(['Bo 1', 'Bo 2', 'Bo 3']);
    expect(answer.more).toEqual(
      expect.arrayContaining([
        { assignee: 'Sam', date: '2026-11-23', count: 5 },
        { assignee: 'Sam', date: '2026-11-24', count: 4 },
      ]),
    );
    expect(answer.more).toHaveLength(2);
    // The default: six per person per day.
    expect(scheduleSchema.parse((await schedule({ tz: 'UTC', start: '2026-11-23', days: 1 })).json).jobs).toHaveLength(9);
  });

  it('stops at the most jobs one answer holds and says so', async () => {
    const { customerId } = await withCustomer();
    t.api.store.run(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO jobs (customer_id, title, status, assignee, scheduled_start_dt, created_dt, modified_dt, scheduled_dt)
       SELECT ?, 'Job ' || i, 'scheduled', 'P' || (i % 50), ? + (i % 7) * 86400000 + i * 1000, 1, 1, 1 FROM n`,
      [limits.maxScheduleJobs + 200, Number(customerId), monday],
    );
    const answer = scheduleSchema.parse((await schedule({ tz: 'UTC', start: '2026-11-23', days: 7, perCell: 50 })).json);
    expect(answer.jobs).toHaveLength(limits.maxScheduleJobs);
    expect(answer.truncated).toBe(true);
  });

  it('lists the jobs still to put on the calendar, newest first, with their total', async () => {
    const { createJob } = await withCustomer();
    await createJob({ title: 'Old quote' });
    await createJob({ title: 'Scheduled', status: 'scheduled', scheduled_start_dt: monday });
    await createJob({ title: 'New quote' });
    const cancelled = (await createJob({ title: 'Cancelled quote' })).json as { id: string };
    await t.call('POST', `/api/jobs/${cancelled.id}/move`, { status: 'cancelled' });
    const res = await listJobs({ unscheduled: true });
    expect(z.array(jobSchema).parse(res.json).map((j) => j.title)).toEqual(['New quote', 'Old quote']);
    expect(res.headers.get(totalCountHeader)).toBe('2');
    // Placing a quote on the calendar takes it off the list.
    const quote = z.array(jobSchema).parse(res.json)[0] as Job;
    const placed = await t.call('PATCH', `/api/jobs/${quote.id}`, { status: 'scheduled', scheduled_start_dt: monday + 9 * hour, scheduled_end_dt: monday + 10 * hour, assignee: 'Sam' });
    expect(placed.status).toBe(200);
    expect(z.array(jobSchema).parse((await listJobs({ unscheduled: true })).json).map((j) => j.title)).toEqual(['Old quote']);
    expect(titlesOf(await schedule({ tz: 'UTC', start: '2026-11-23', days: 1 }))).toEqual(['Scheduled', 'New quote']);
  });

  it('names everyone a job is assigned to as the lanes, each once, archived jobs aside', async () => {
    const { createJob } = await withCustomer();
    for (const assignee of ['Sam', 'alex', 'Ängel', 'Sam', '', 'Bo']) await createJob({ assignee });
    const archived = (await createJob({ assignee: 'Gone' })).json as { id: string };
    await t.call('POST', `/api/jobs/${archived.id}/archive`);
    const answer = scheduleSchema.parse((await schedule({ tz: 'UTC', start: '2026-11-23', days: 1 })).json);
    expect(answer.assignees).toEqual(['Bo', 'Sam', 'alex', 'Ängel']);
  });

  it('reads the schedule and the unscheduled list off their indexes', async () => {
    await withCustomer();
    const plan = (sql: string, params: unknown[]) =>
      t.api.store.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params as never).map((r) => r.detail).join('\n');
    expect(
      plan(
        `SELECT count(*) FROM jobs k INDEXED BY jobs_lane_idx WHERE k.assignee = ? AND k.archived_dt IS NULL AND k.scheduled_start_dt IS NOT NULL
         AND k.status <> 'cancelled' AND k.scheduled_start_dt >= ? AND k.scheduled_start_dt < ? AND (k.scheduled_start_dt >= ? OR k.scheduled_end_dt > ?)`,
        ['Sam', 1, 2, 1, 1],
      ),
    ).toMatch(/COVERING INDEX jobs_lane_idx \(assignee=\? AND scheduled_start_dt>\? AND scheduled_start_dt<\?\)/);
    expect(
      plan(
        `SELECT j.id FROM jobs j INDEXED BY jobs_unscheduled_idx WHERE j.archived_dt IS NULL AND j.scheduled_start_dt IS NULL AND j.status IN ('quote', 'scheduled', 'in_progress')
         ORDER BY j.modified_dt DESC, j.id DESC LIMIT 10`,
        [],
      ),
    ).toMatch(/jobs_unscheduled_idx/);
    expect(plan("SELECT min(assignee) FROM jobs WHERE archived_dt IS NULL AND assignee > 'a'", [])).toMatch(/USING (COVERING )?INDEX jobs_assignee_idx \(assignee>\?\)/);
  });
});

describe('seeded jobs', () => {
  it('gives customers a history of jobs across every status, with consistent dates', async () => {
    const now = Date.UTC(2026, 10, 1);
    const api = await createMockApi({ now: () => now, seed: { count: 200, fakerSeed: 11 } });
    const jobs = z.array(jobSchema).parse(
      await (await api.fetch(new Request(`http://localhost/api/jobs?filterJson=${encodeURIComponent('{"limit":1000}')}`))).json(),
    );
    expect(jobs.length).toBeGreaterThan(200);
    expect(new Set(jobs.map((j) => j.status))).toEqual(new Set(jobStatuses));
    for (const job of jobs) {
      expect(job.status_dates[job.status], job.id).not.toBeNull();
      expect(job.created_dt).toBeLessThanOrEqual(job.modified_dt);
      expect(job.modified_dt).toBeLessThanOrEqual(now);
      if (job.scheduled_end_dt !== null) expect(job.scheduled_end_dt).toBeGreaterThanOrEqual(job.scheduled_start_dt!);
      if (job.status === 'scheduled') expect(job.scheduled_start_dt).not.toBeNull();
    }
    await api.close();
  });
});

describe('migration 2', () => {
  it('adds jobs to a database made by migration 1 and keeps its customers', async () => {
    const store = await openSqliteStore({ storage: 'memory' });
    store.migrate(migrations.slice(0, 1));
    store.run("INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES ('Kept', '1', 'k@e.com', 1, 1)");
    const api = await createMockApi({ store });
    expect(api.info.schemaVersion).toBe(latestSchemaVersion);
    expect(store.all('SELECT full_name FROM customers')).toEqual([{ full_name: 'Kept' }]);
    expect(store.get('SELECT count(*) AS n FROM jobs')).toEqual({ n: 0 });
    await api.close();
    await store.close();
  });
});
