import { z } from 'zod';
import { jobCountsSchema, jobSchema, jobStatuses, jobTransitions, type Job } from '../job';
import { scheduleSchema } from '../schedule';
import { check, expectBody, expectError, expectStatus, expectTotal, tick } from './kit-client';
import type { ConformanceRule, RuleContext } from './rule-context';

const jobList = z.array(jobSchema);

async function jobOwner(ctx: RuleContext, word: string) {
  const customer = await ctx.createCustomer(`${ctx.token}${word}`);
  return { customer, create: (fields: Record<string, unknown> = {}) => ctx.createJob(customer.id, fields) };
}

/** Jobs (decision 0003): fields, lifecycle, lists and counts. */
export const jobRules: ConformanceRule[] = [
  {
    id: 'jobs.create',
    title: 'POST /jobs with a customer and a title answers 200 with a quote, the defaults, the customer name and the quote date.',
    async run(ctx) {
      const { customer } = await jobOwner(ctx, 'jobnew');
      const reply = await ctx.api.call('POST', '/jobs', { body: { customer_id: customer.id, title: '  Boiler service  ' } });
      expectStatus(reply, 200);
      const job = expectBody(reply, jobSchema, 'a job');
      const defaults = { customer_id: customer.id, customer_name: customer.full_name, title: 'Boiler service', description: '', service_address: '',
        status: 'quote', assignee: '', scheduled_start_dt: null, scheduled_end_dt: null, price_cents: 0 };
      for (const [key, value] of Object.entries(defaults)) {
        check(job[key as keyof Job] === value, () => `expected ${key}: ${JSON.stringify(value)}: ${reply.describe()}`);
      }
      check(job.created_dt === job.modified_dt && job.status_dates.quote === job.created_dt, () => `created_dt, modified_dt and status_dates.quote should be the same now: ${reply.describe()}`);
      check(jobStatuses.every((s) => s === 'quote' || job.status_dates[s] === null), () => `only the quote date should be set: ${reply.describe()}`);
    },
  },
  {
    id: 'jobs.create.field-rules',
    title: 'POST /jobs with a field that breaks a rule answers 400 VALIDATION_FAILED naming that field.',
    async run(ctx) {
      const { customer } = await jobOwner(ctx, 'jobrules');
      const cases: [Record<string, unknown>, string][] = [
        [{ title: '   ' }, 'title'], [{ title: 'x'.repeat(121) }, 'title'], [{ price_cents: -1 }, 'price_cents'], [{ price_cents: 10.5 }, 'price_cents'],
        [{ scheduled_start_dt: 2000, scheduled_end_dt: 1000 }, 'scheduled_end_dt'], [{ scheduled_end_dt: 1000 }, 'scheduled_start_dt'],
        [{ status: 'scheduled' }, 'scheduled_start_dt'], [{ status: 'paid' }, 'status'], [{ status: 'done' }, 'status'],
      ];
      for (const [fields, path] of cases) {
        const reply = await ctx.api.call('POST', '/jobs', { body: { customer_id: customer.id, title: 'Job', ...fields } });
        const error = expectError(reply, 400, 'VALIDATION_FAILED');
        check((error.issues ?? []).some((i) => i.path === path), () => `expected an issue for ${path}: ${reply.describe()}`);
      }
      const jobs = await ctx.api.call('GET', '/jobs', { filter: { customerId: customer.id } });
      check(Array.isArray(jobs.json) && jobs.json.length === 0, () => `no job should have been created: ${jobs.describe()}`);
    },
  },
  {
    id: 'jobs.create.unknown-customer',
    title: 'POST /jobs for a customer that does not exist answers 400 with an issue on customer_id.',
    async run({ api }) {
      for (const customer_id of ['999999999999999', 'abc']) {
        const reply = await api.call('POST', '/jobs', { body: { customer_id, title: 'Orphan' } });
        const error = expectError(reply, 400, 'VALIDATION_FAILED');
        check((error.issues ?? []).some((i) => i.path === 'customer_id'), () => `expected an issue for customer_id: ${reply.describe()}`);
      }
    },
  },
  {
    id: 'jobs.create.invalid-json',
    title: 'POST /jobs with a body that is not JSON answers 400 INVALID_JSON.',
    async run({ api }) {
      expectError(await api.call('POST', '/jobs', { rawBody: '{oops' }), 400, 'INVALID_JSON');
    },
  },
  {
    id: 'jobs.get',
    title: 'GET /jobs/{id} answers the job; a job that does not exist answers 404 NOT_FOUND, also for PUT and PATCH.',
    async run(ctx) {
      const { create } = await jobOwner(ctx, 'jobget');
      const job = await create();
      const reply = await ctx.api.call('GET', `/jobs/${job.id}`);
      expectStatus(reply, 200);
      check(JSON.stringify(expectBody(reply, jobSchema, 'a job')) === JSON.stringify(job), () => `expected the job as created: ${reply.describe()}`);
      expectError(await ctx.api.call('GET', '/jobs/999999999999999'), 404, 'NOT_FOUND');
      expectError(await ctx.api.call('GET', '/jobs/abc'), 404, 'NOT_FOUND');
      expectError(await ctx.api.call('PATCH', '/jobs/999999999999999', { body: { title: 'x' } }), 404, 'NOT_FOUND');
      expectError(await ctx.api.call('PUT', '/jobs/999999999999999', { body: { customer_id: job.customer_id, title: 'x' } }), 404, 'NOT_FOUND');
    },
  },
  {
    id: 'jobs.move.allowed',
    title: 'An allowed status move (quote → scheduled → in_progress → completed) answers 200 and records when it happened.',
    async run(ctx) {
      const { create } = await jobOwner(ctx, 'jobmove');
      let job = await create();
      const steps: [string, Record<string, unknown>][] = [['scheduled', { scheduled_start_dt: Date.now() }], ['in_progress', {}], ['completed', {}]];
      for (const [status, extra] of steps) {
        await tick();
        const reply = await ctx.api.call('PATCH', `/jobs/${job.id}`, { body: { status, ...extra } });
        expectStatus(reply, 200, `moving ${job.status} → ${status}`);
        const moved = expectBody(reply, jobSchema, 'the job');
        check(moved.status === status && moved.status_dates[moved.status] === moved.modified_dt && moved.modified_dt > job.modified_dt,
          () => `expected status ${status} with its date = modified_dt, later than before: ${reply.describe()}`);
        job = moved;
      }
    },
  },
  {
    id: 'jobs.move.needs-start',
    title: 'Scheduling a job without a start time answers 400 with an issue on scheduled_start_dt.',
    async run(ctx) {
      const { create } = await jobOwner(ctx, 'jobstart');
      const job = await create();
      const reply = await ctx.api.call('PATCH', `/jobs/${job.id}`, { body: { status: 'scheduled' } });
      const error = expectError(reply, 400, 'VALIDATION_FAILED');
      check((error.issues ?? []).some((i) => i.path === 'scheduled_start_dt'), () => `expected an issue for scheduled_start_dt: ${reply.describe()}`);
    },
  },
  {
    id: 'jobs.move.forbidden',
    title: 'A status move the lifecycle forbids answers 409 CONFLICT whose allowed lists the valid next statuses, and changes nothing.',
    async run(ctx) {
      const { create } = await jobOwner(ctx, 'jobforbid');
      const job = await create();
      for (const method of ['PATCH', 'PUT'] as const) {
        const body = method === 'PATCH' ? { status: 'paid' } : { customer_id: job.customer_id, title: job.title, status: 'invoiced' };
        const reply = await ctx.api.call(method, `/jobs/${job.id}`, { body });
        const error = expectError(reply, 409, 'CONFLICT');
        check(JSON.stringify(error.allowed) === JSON.stringify(jobTransitions.quote), () => `expected allowed: ${JSON.stringify(jobTransitions.quote)}: ${reply.describe()}`);
      }
      const again = await ctx.api.call('GET', `/jobs/${job.id}`);
      check(JSON.stringify(again.json) === JSON.stringify(job), () => `the job should be unchanged: ${again.describe()}`);
    },
  },
  {
    id: 'jobs.update.put-and-patch',
    title: 'PUT /jobs/{id} replaces every field (omitted ones take their defaults); PATCH changes only the fields it names.',
    async run(ctx) {
      const { customer, create } = await jobOwner(ctx, 'jobput');
      const job = await create({ description: 'Annual', assignee: 'Sam', price_cents: 9000 });
      const patched = await ctx.api.call('PATCH', `/jobs/${job.id}`, { body: { price_cents: 9500 } });
      expectStatus(patched, 200);
      const p = expectBody(patched, jobSchema, 'the job');
      check(p.description === 'Annual' && p.assignee === 'Sam' && p.price_cents === 9500, () => `PATCH should change only price_cents: ${patched.describe()}`);
      const put = await ctx.api.call('PUT', `/jobs/${job.id}`, { body: { customer_id: customer.id, title: 'New title' } });
      expectStatus(put, 200);
      const r = expectBody(put, jobSchema, 'the job');
      check(r.title === 'New title' && r.description === '' && r.assignee === '' && r.price_cents === 0, () => `PUT should reset omitted fields: ${put.describe()}`);
    },
  },
  {
    id: 'jobs.list',
    title: 'GET /jobs filters by customer, status and search text, newest modified first, with X-Total-Count.',
    async run(ctx) {
      const word = `${ctx.token}jl`;
      const { customer, create } = await jobOwner(ctx, 'joblist');
      const gutter = await create({ title: `Gutter cleaning ${word}` });
      await tick();
      const boiler = await create({ title: 'Boiler service', status: 'scheduled', scheduled_start_dt: Date.now() });
      await tick();
      const fence = await create({ title: 'Fence repair', description: `Storm damage ${word}` });
      const ids = async (filter: unknown) => {
        const reply = await ctx.api.call('GET', '/jobs', { filter });
        expectStatus(reply, 200);
        const rows = expectBody(reply, jobList, 'an array of jobs');
        check(expectTotal(reply) === rows.length, () => `expected X-Total-Count ${rows.length}: ${reply.describe()}`);
        return { ids: rows.map((j) => j.id), reply };
      };
      const cases: [unknown, string[]][] = [
        [{ customerId: customer.id }, [fence.id, boiler.id, gutter.id]],
        [{ customerId: customer.id, status: 'scheduled' }, [boiler.id]],
        [{ queryText: `gutt ${word}` }, [gutter.id]],
        [{ queryText: `storm ${word}` }, [fence.id]],
      ];
      for (const [filter, want] of cases) {
        const got = await ids(filter);
        check(JSON.stringify(got.ids) === JSON.stringify(want), () => `expected ${JSON.stringify(want)}: ${got.reply.describe()}`);
      }
    },
  },
  {
    id: 'jobs.list.sort',
    title: 'GET /jobs orders by sortBy (title, price_cents, scheduled_start_dt with unscheduled last, status in lifecycle order, modified_dt), sortOrder asc or desc; an unknown one is a 400.',
    async run(ctx) {
      const { customer, create } = await jobOwner(ctx, 'jobsort');
      const soon = Date.now() + 86_400_000;
      const a = await create({ title: 'b roof', price_cents: 500 });
      const b = await create({ title: 'A gate', price_cents: 100, status: 'scheduled', scheduled_start_dt: soon + 3_600_000 });
      const c = await create({ title: 'c drain', price_cents: 300, status: 'scheduled', scheduled_start_dt: soon });
      const ids = async (filter: object) => {
        const reply = await ctx.api.call('GET', '/jobs', { filter: { customerId: customer.id, ...filter } });
        expectStatus(reply, 200);
        const rows = expectBody(reply, jobList, 'an array of jobs');
        check(expectTotal(reply) === 3, () => `expected X-Total-Count 3: ${reply.describe()}`);
        return { ids: rows.map((j) => j.id), reply };
      };
      const cases: [object, string[]][] = [
        [{ sortBy: 'title' }, [b.id, a.id, c.id]],
        [{ sortBy: 'title', sortOrder: 'desc' }, [c.id, a.id, b.id]],
        [{ sortBy: 'price_cents' }, [a.id, c.id, b.id]],
        [{ sortBy: 'price_cents', sortOrder: 'asc' }, [b.id, c.id, a.id]],
        [{ sortBy: 'scheduled_start_dt' }, [c.id, b.id, a.id]],
        [{ sortBy: 'scheduled_start_dt', sortOrder: 'desc' }, [b.id, c.id, a.id]],
        [{ sortBy: 'status' }, [a.id, c.id, b.id]],
      ];
      for (const [filter, want] of cases) {
        const got = await ids(filter);
        check(JSON.stringify(got.ids) === JSON.stringify(want), () => `${JSON.stringify(filter)} should answer ${JSON.stringify(want)}: ${got.reply.describe()}`);
      }
      const bad = await ctx.api.call('GET', '/jobs', { filter: { customerId: customer.id, sortBy: 'customer_name' } });
      expectError(bad, 400, 'INVALID_PARAMS');
    },
  },
  {
    id: 'jobs.counts',
    title: 'GET /jobs/counts answers how many jobs match, per status and in all.',
    async run(ctx) {
      const { customer, create } = await jobOwner(ctx, 'jobcount');
      await create();
      await create();
      await create({ status: 'scheduled', scheduled_start_dt: Date.now() });
      const reply = await ctx.api.call('GET', '/jobs/counts', { filter: { customerId: customer.id } });
      expectStatus(reply, 200);
      const counts = expectBody(reply, jobCountsSchema, 'the counts per status');
      const want = { all: 3, quote: 2, scheduled: 1, in_progress: 0, completed: 0, invoiced: 0, paid: 0, cancelled: 0 };
      check(JSON.stringify(counts, Object.keys(want)) === JSON.stringify(want), () => `expected ${JSON.stringify(want)}: ${reply.describe()}`);
    },
  },
  {
    id: 'jobs.schedule',
    title:
      'GET /jobs/schedule answers the jobs on the calendar over some days of a time zone (one that began up to 14 days before and runs into them included) and the lanes; the unscheduled filter lists the open jobs with no time.',
    async run(ctx) {
      const { customer, create } = await jobOwner(ctx, 'jobsched');
      const hour = 3_600_000;
      // A day far ahead that no other rule uses; a token's own minute keeps runs apart.
      const day = Date.UTC(2091, 0, 1) + (parseInt(ctx.token.slice(1, 6), 36) % 10_000) * 24 * hour;
      const person = `Kit ${ctx.token}`;
      const inside = await create({ title: `${ctx.token} inside`, status: 'scheduled', scheduled_start_dt: day + 9 * hour, scheduled_end_dt: day + 11 * hour, assignee: person });
      const runningIn = await create({ title: `${ctx.token} running in`, status: 'scheduled', scheduled_start_dt: day - 3 * 24 * hour, scheduled_end_dt: day + hour });
      const after = await create({ title: `${ctx.token} after`, status: 'scheduled', scheduled_start_dt: day + 30 * hour });
      const quote = await create({ title: `${ctx.token} quote` });
      const date = new Date(day).toISOString().slice(0, 10);
      const reply = await ctx.api.call('GET', '/jobs/schedule', { filter: { tz: 'UTC', start: date, days: 1, perCell: 50 } });
      expectStatus(reply, 200);
      const schedule = expectBody(reply, scheduleSchema, 'a schedule');
      const ids = schedule.jobs.map((j) => j.id);
      check(ids.includes(inside.id) && ids.includes(runningIn.id), () => `the range should hold the job inside it and the one running into it: ${reply.describe()}`);
      check(!ids.includes(after.id) && !ids.includes(quote.id), () => `the range should not hold a later job or one with no time: ${reply.describe()}`);
      check(ids.indexOf(runningIn.id) < ids.indexOf(inside.id), () => `earliest start first: ${reply.describe()}`);
      check(schedule.assignees.includes(person), () => `the lanes should name ${person}: ${reply.describe()}`);
      check(schedule.days.length === 1 && schedule.days[0]?.date === date && schedule.days[0].start_dt === day, () => `one day, ${date}, from ${day}: ${reply.describe()}`);
      expectError(await ctx.api.call('GET', '/jobs/schedule', { filter: { tz: 'UTC', start: date, days: 0 } }), 400, 'INVALID_PARAMS');
      const unscheduled = await ctx.api.call('GET', '/jobs', { filter: { customerId: customer.id, unscheduled: true } });
      expectStatus(unscheduled, 200);
      check(JSON.stringify(expectBody(unscheduled, jobList, 'a list of jobs').map((j) => j.id)) === JSON.stringify([quote.id]), () => `only the quote has no time: ${unscheduled.describe()}`);
      check(expectTotal(unscheduled) === 1, () => `X-Total-Count should be 1: ${unscheduled.describe()}`);
    },
  },
];
