import { z } from 'zod';
import { customerDuplicateSchema, customerSchema } from '../customer';
import { jobCountsSchema, jobSchema } from '../job';
import { check, expectBody, expectError, expectStatus, expectTotal } from './kit-client';
import type { ConformanceRule } from './rule-context';

const customerList = z.array(customerSchema);
const jobList = z.array(jobSchema);

/** Everyday errands (decisions 0090–0092): phone digits in search, archive, duplicates, one-click moves and their undo. */
export const errandRules: ConformanceRule[] = [
  {
    id: 'search.phone-digits',
    title:
      'A search for four or more digits, typed with or without spaces, dashes, dots, brackets or a leading +, finds the customer whose phone holds them; so does the national form caller ID shows (trunk prefix 0 for the country code) and the international one (00).',
    async run(ctx) {
      const serial = String(Date.now()).slice(-7);
      const phone = `+1 (8${serial.slice(0, 2)}) ${serial.slice(2, 5)}-${serial.slice(5)}1`;
      const digits = phone.replace(/\D/g, '');
      const customer = await ctx.createCustomer(`${ctx.token}phone`, { phone });
      for (const typed of [digits, digits.slice(1), `${digits.slice(1, 4)}-${digits.slice(4, 7)}`, `(${digits.slice(1, 4)}) ${digits.slice(4)}`, `+${digits}`]) {
        const reply = await ctx.api.call('GET', '/customers', { filter: { queryText: typed, limit: 1000 } });
        expectStatus(reply, 200, `searching for ${JSON.stringify(typed)}`);
        const found = expectBody(reply, customerList, 'a page of customers');
        check(found.some((c) => c.id === customer.id), () => `searching for ${JSON.stringify(typed)} should find the customer whose phone is ${phone}: ${reply.describe()}`);
        check(expectTotal(reply) >= 1, () => `the total should count the match: ${reply.describe()}`);
      }
      // A UK mobile stored in its international form, typed as caller ID shows it.
      const uk = `+44 7${serial.slice(0, 3)} ${serial.slice(3)}56`;
      const ukCustomer = await ctx.createCustomer(`${ctx.token}uk`, { phone: uk });
      const national = `07${serial}56`;
      for (const typed of [national, `07${serial.slice(0, 3)} ${serial.slice(3)}56`, `0044${national.slice(1)}`]) {
        const reply = await ctx.api.call('GET', '/customers', { filter: { queryText: typed, limit: 1000 } });
        const found = expectBody(reply, customerList, 'a page of customers');
        check(found.some((c) => c.id === ukCustomer.id), () => `searching for ${JSON.stringify(typed)} should find the customer whose phone is ${uk}: ${reply.describe()}`);
      }
    },
  },
  {
    id: 'customers.archive',
    title: 'POST /customers/{id}/archive takes a customer out of lists and search (archived: true lists them); restore brings them back; DELETE removes only an archived one.',
    async run(ctx) {
      const word = `${ctx.token}arch`;
      const customer = await ctx.createCustomer(word);
      const search = async (filter: Record<string, unknown>) =>
        expectBody(await ctx.api.call('GET', '/customers', { filter }), customerList, 'a page of customers').map((c) => c.id);
      const refused = await ctx.api.call('DELETE', `/customers/${customer.id}`);
      expectError(refused, 409, 'CONFLICT');
      const archived = await ctx.api.call('POST', `/customers/${customer.id}/archive`);
      expectStatus(archived, 200);
      check(typeof expectBody(archived, customerSchema, 'the customer').archived_dt === 'number', () => `archived_dt should be set: ${archived.describe()}`);
      check(!(await search({ queryText: word })).includes(customer.id), 'an archived customer should not be found by search');
      check((await search({ archived: true, limit: 1000 })).includes(customer.id), 'the archive (archived: true) should list the customer');
      const restored = await ctx.api.call('POST', `/customers/${customer.id}/restore`);
      expectStatus(restored, 200);
      check(expectBody(restored, customerSchema, 'the customer').archived_dt == null, () => `archived_dt should be cleared: ${restored.describe()}`);
      check((await search({ queryText: word })).includes(customer.id), 'a restored customer should be found again');
      await ctx.api.call('POST', `/customers/${customer.id}/archive`);
      const removed = await ctx.api.call('DELETE', `/customers/${customer.id}`);
      expectStatus(removed, 200);
      expectStatus(await ctx.api.call('GET', `/customers/${customer.id}`), 404, 'a deleted customer is gone');
    },
  },
  {
    id: 'customers.duplicates',
    title: 'GET /customers/duplicates names the customers that already have an email (any case) or a phone with the same digits.',
    async run(ctx) {
      const customer = await ctx.createCustomer(`${ctx.token}dup`);
      const reply = await ctx.api.call('GET', '/customers/duplicates', { filter: { email: customer.email.toUpperCase() } });
      expectStatus(reply, 200);
      const matches = expectBody(reply, z.array(customerDuplicateSchema), 'the matches');
      check(matches.some((m) => m.customer.id === customer.id && m.matched.includes('email')), () => `the customer with that email should be named: ${reply.describe()}`);
      const none = await ctx.api.call('GET', '/customers/duplicates', { filter: { email: `nobody.${ctx.token}@example.com` } });
      check(expectBody(none, z.array(customerDuplicateSchema), 'the matches').length === 0, () => `no one has that email: ${none.describe()}`);
    },
  },
  {
    id: 'jobs.archive',
    title: 'An archived job is out of the job list and counts until restored; only an archived job can be deleted for good.',
    async run(ctx) {
      const customer = await ctx.createCustomer(`${ctx.token}jarch`);
      const job = await ctx.createJob(customer.id);
      const counts = async () => expectBody(await ctx.api.call('GET', '/jobs/counts', { filter: { customerId: customer.id } }), jobCountsSchema, 'counts');
      expectError(await ctx.api.call('DELETE', `/jobs/${job.id}`), 409, 'CONFLICT');
      expectStatus(await ctx.api.call('POST', `/jobs/${job.id}/archive`), 200);
      check((await counts()).all === 0, 'an archived job should not be counted');
      const list = await ctx.api.call('GET', '/jobs', { filter: { customerId: customer.id } });
      check(expectBody(list, jobList, 'jobs').length === 0, () => `an archived job should not be listed: ${list.describe()}`);
      expectStatus(await ctx.api.call('POST', `/jobs/${job.id}/restore`), 200);
      check((await counts()).all === 1, 'a restored job should be counted');
      await ctx.api.call('POST', `/jobs/${job.id}/archive`);
      expectStatus(await ctx.api.call('DELETE', `/jobs/${job.id}`), 200);
      expectStatus(await ctx.api.call('GET', `/jobs/${job.id}`), 404, 'a deleted job is gone');
    },
  },
  {
    id: 'jobs.one-click-move',
    title: 'POST /jobs/{id}/move makes an allowed move (409 otherwise); POST /jobs/{id}/revert with the version it produced undoes exactly that move, out of paid too, once.',
    async run(ctx) {
      const customer = await ctx.createCustomer(`${ctx.token}move`);
      // A price: a job with none is paid as soon as it is invoiced (nothing is owed; decision 0161).
      let job = await ctx.createJob(customer.id, { status: 'scheduled', scheduled_start_dt: Date.UTC(2026, 11, 1, 9), price_cents: 15_000 });
      for (const status of ['in_progress', 'completed', 'invoiced', 'paid']) {
        const reply = await ctx.api.call('POST', `/jobs/${job.id}/move`, { body: { status } });
        expectStatus(reply, 200, `moving to ${status}`);
        job = expectBody(reply, jobSchema, 'the job');
      }
      expectError(await ctx.api.call('POST', `/jobs/${job.id}/move`, { body: { status: 'quote' } }), 409, 'CONFLICT');
      const undone = await ctx.api.call('POST', `/jobs/${job.id}/revert`, { body: { version: job.modified_dt } });
      expectStatus(undone, 200);
      const back = expectBody(undone, jobSchema, 'the job');
      check(back.status === 'invoiced' && back.status_dates.paid === null, () => `the job should be invoiced again, with no paid date: ${undone.describe()}`);
      expectError(await ctx.api.call('POST', `/jobs/${job.id}/revert`, { body: { version: job.modified_dt } }), 409, 'CONFLICT');
    },
  },
];
