import { customerSchema } from '../customer';
import { jobSchema } from '../job';
import { etagOf } from '../precondition';
import { check, expectBody, expectError, expectStatus } from './kit-client';
import type { ConformanceRule } from './rule-context';

/** Optimistic concurrency: ETag on one record, If-Match on its update (decision 0010). */
export const concurrencyRules: ConformanceRule[] = [
  {
    id: 'concurrency.etag',
    title: 'GET /customers/{id} and /jobs/{id} answer with ETag "modified_dt".',
    async run(ctx) {
      const customer = await ctx.createCustomer(`${ctx.token}et`);
      const reply = await ctx.api.call('GET', `/customers/${customer.id}`);
      expectStatus(reply, 200);
      check(reply.headers.get('etag') === etagOf(customer.modified_dt), () => `expected ETag ${etagOf(customer.modified_dt)}, got ${reply.headers.get('etag')}: ${reply.describe()}`);
      const job = await ctx.createJob(customer.id);
      const jobReply = await ctx.api.call('GET', `/jobs/${job.id}`);
      check(jobReply.headers.get('etag') === etagOf(job.modified_dt), () => `expected ETag ${etagOf(job.modified_dt)}: ${jobReply.describe()}`);
    },
  },
  {
    id: 'concurrency.if-match',
    title: 'PUT with If-Match naming the current version saves; a stale one answers 412 PRECONDITION_FAILED and saves nothing.',
    async run(ctx) {
      const customer = await ctx.createCustomer(`${ctx.token}im`);
      const fields = { full_name: customer.full_name, email: customer.email, phone: customer.phone };
      const stale = await ctx.api.call('PUT', `/customers/${customer.id}`, {
        body: { ...fields, full_name: `Stale ${ctx.token}` },
        headers: { 'if-match': etagOf(customer.modified_dt - 1) },
      });
      expectError(stale, 412, 'PRECONDITION_FAILED');
      const unchanged = expectBody(await ctx.api.call('GET', `/customers/${customer.id}`), customerSchema, 'the customer');
      check(unchanged.full_name === customer.full_name, () => `a refused update must change nothing, got ${unchanged.full_name}`);
      const saved = await ctx.api.call('PUT', `/customers/${customer.id}`, {
        body: { ...fields, full_name: `Fresh ${ctx.token}` },
        headers: { 'if-match': etagOf(customer.modified_dt) },
      });
      expectStatus(saved, 200);
      check(expectBody(saved, customerSchema, 'the customer').full_name === `Fresh ${ctx.token}`, () => `expected the update saved: ${saved.describe()}`);
      const job = await ctx.createJob(customer.id);
      const staleJob = await ctx.api.call('PATCH', `/jobs/${job.id}`, { body: { title: 'Stale' }, headers: { 'if-match': etagOf(job.modified_dt - 1) } });
      expectError(staleJob, 412, 'PRECONDITION_FAILED');
      const jobAfter = expectBody(await ctx.api.call('GET', `/jobs/${job.id}`), jobSchema, 'the job');
      check(jobAfter.title === job.title, () => `a refused job update must change nothing, got ${jobAfter.title}`);
    },
  },
  {
    id: 'concurrency.versions',
    title: 'Every write gives the record a greater version (modified_dt, its ETag), also writes right after each other; the version before is then stale (412).',
    async run(ctx) {
      // Back to back, with no pause: a version taken from a clock repeats within its millisecond.
      const customer = await ctx.createCustomer(`${ctx.token}ver`);
      const fields = { full_name: customer.full_name, email: customer.email, phone: customer.phone };
      const saves = [];
      for (const phone of ['555 0701', '555 0702', '555 0703']) {
        const reply = await ctx.api.call('PUT', `/customers/${customer.id}`, { body: { ...fields, phone } });
        expectStatus(reply, 200);
        saves.push({ reply, version: expectBody(reply, customerSchema, 'the customer').modified_dt });
      }
      const versions = [customer.modified_dt, ...saves.map((s) => s.version)];
      check(versions.every((v, i) => i === 0 || v > (versions[i - 1] as number)), () => `each write should give a greater modified_dt, got ${versions.join(', ')}`);
      for (const { reply, version } of saves) check(reply.headers.get('etag') === etagOf(version), () => `expected ETag ${etagOf(version)}: ${reply.describe()}`);
      const stale = await ctx.api.call('PUT', `/customers/${customer.id}`, { body: fields, headers: { 'if-match': etagOf(saves[1]?.version ?? 0) } });
      expectError(stale, 412, 'PRECONDITION_FAILED');
      const job = await ctx.createJob(customer.id);
      const first = expectBody(await ctx.api.call('PATCH', `/jobs/${job.id}`, { body: { title: `Kit v1 ${ctx.token}` } }), jobSchema, 'the job');
      const second = expectBody(await ctx.api.call('PATCH', `/jobs/${job.id}`, { body: { title: `Kit v2 ${ctx.token}` } }), jobSchema, 'the job');
      check(job.modified_dt < first.modified_dt && first.modified_dt < second.modified_dt, () => `each job write should give a greater modified_dt, got ${job.modified_dt}, ${first.modified_dt}, ${second.modified_dt}`);
      const staleJob = await ctx.api.call('PATCH', `/jobs/${job.id}`, { body: { title: 'Stale' }, headers: { 'if-match': etagOf(first.modified_dt) } });
      expectError(staleJob, 412, 'PRECONDITION_FAILED');
    },
  },
];
