import { customerDuplicateSchema, customerSchema, jobCountsSchema, jobSchema, totalCountHeader, type Job } from '@otto/api-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { phoneDigitForms, phoneDigitsOf, toCustomerFtsQuery } from '../src/database/fts-query';
import { startApi, type TestApi } from './helpers';

const customers = z.array(customerSchema);
const jobs = z.array(jobSchema);
let t: TestApi;
afterEach(() => t.api.close());

const names = async (filter: unknown) => customers.parse((await t.list(filter)).json).map((c) => c.full_name);

describe('phone numbers typed in any form (decision 0090)', () => {
  it('finds the customer whose phone holds the digits, with or without punctuation', async () => {
    t = await startApi();
    await t.create({ full_name: 'Dana Plumber', email: 'dana@example.com', phone: '1-836-489-5133' });
    await t.create({ full_name: 'Eli Sparks', email: 'eli@example.com', phone: '+44 20 7946 0958' });
    await t.create({ full_name: 'Fay 1836', email: 'fay@example.com', phone: '555 0100' });
    for (const typed of ['1836489513', '18364895133', '836-489', '(836) 489 5133', '836.489.5133', '+1 836 489 5133', '4895133', '5133', ' 89-51 ']) {
      expect(await names({ queryText: typed }), typed).toEqual(['Dana Plumber']);
    }
    for (const typed of ['2079460958', '+442079460958', '7946 0958', '946-09']) {
      expect(await names({ queryText: typed }), typed).toEqual(['Eli Sparks']);
    }
    // A number and a word: both must match.
    expect(await names({ queryText: 'Dana 4895' })).toEqual(['Dana Plumber']);
    expect(await names({ queryText: 'Eli 4895' })).toEqual([]);
    // Digits that are in no phone find no one; fewer than four digits stay word prefixes only.
    expect(await names({ queryText: '99999' })).toEqual([]);
    expect(await names({ queryText: '133' })).toEqual([]);
    expect(await names({ queryText: '836' })).toEqual(['Dana Plumber']);
  });

  it("keeps the spec's customer_text rules: words are prefixes of customer_text words, the total is right", async () => {
    t = await startApi();
    await t.create({ full_name: 'Dana Plumber', email: 'dana@example.com', phone: '1-836-489-5133' });
    await t.create({ full_name: 'Fay 1836', email: 'fay@example.com', phone: '555 0100' });
    // "1836" is the start of Fay's name word and a run inside Dana's phone: both.
    const res = await t.list({ queryText: '1836' });
    expect(res.headers.get(totalCountHeader)).toBe('2');
    expect(customers.parse(res.json).map((c) => c.full_name).sort()).toEqual(['Dana Plumber', 'Fay 1836']);
    expect(await names({ queryText: 'plum' })).toEqual(['Dana Plumber']);
    expect(await names({ queryText: 'example' })).toHaveLength(2);
    // A word is never matched inside a word: "lumber" is not a prefix of a word.
    expect(await names({ queryText: 'lumber' })).toEqual([]);
    expect(t.api.store.get<{ customer_text: string }>('SELECT customer_text FROM customers_fts WHERE rowid = 1')).toEqual({
      customer_text: 'Dana Plumber dana@example.com 1-836-489-5133',
    });
  });

  it('keeps the digits current when a phone changes', async () => {
    t = await startApi();
    const dana = customerSchema.parse((await t.create({ full_name: 'Dana', email: 'd@example.com', phone: '111 2222' })).json);
    await t.call('PUT', `/api/customers/${dana.id}`, { full_name: 'Dana', email: 'd@example.com', phone: '(333) 444-5555' });
    expect(await names({ queryText: '1112222' })).toEqual([]);
    expect(await names({ queryText: '3334445555' })).toEqual(['Dana']);
    t.api.store.run("INSERT INTO customers_fts (customers_fts) VALUES ('integrity-check')");
  });

  it('builds the expression from digits only when the text reads as a number', () => {
    expect(phoneDigitsOf('+1 (836) 489-5133')).toBe('18364895133');
    expect(phoneDigitsOf('12a4')).toBeNull();
    expect(phoneDigitsOf('123')).toBeNull();
    // The national form caller ID shows, and the international one, are runs of the stored digits too.
    expect(phoneDigitForms('07700 900456')).toEqual(['07700900456', '7700900456']);
    expect(phoneDigitForms('0044 7700 900456')).toEqual(['00447700900456', '447700900456']);
    expect(phoneDigitForms('0123')).toEqual(['0123']);
    expect(toCustomerFtsQuery('07700900456')).toBe('(customer_text : ("07700900456"*) OR phone_digits : ("07700900456"* OR "7700900456"*))');
    expect(toCustomerFtsQuery('smi')).toBe('customer_text : ("smi"*)');
    expect(toCustomerFtsQuery('836-4895')).toBe('(customer_text : ("836 4895"*) OR phone_digits : "8364895"*)');
    expect(toCustomerFtsQuery('836 4895')).toBe(
      '(customer_text : ("836"*) AND (customer_text : ("4895"*) OR phone_digits : "4895"*)) OR phone_digits : "8364895"*',
    );
    expect(toCustomerFtsQuery('"*(')).toBeNull();
  });
});

describe('archive, restore and delete for good (decision 0091)', () => {
  it('takes an archived customer out of lists, search and counts, keeps their jobs, and restores them', async () => {
    t = await startApi();
    const dana = customerSchema.parse((await t.create({ full_name: 'Dana Plumber', email: 'dana@example.com', phone: '1-836-489-5133' })).json);
    await t.create({ full_name: 'Eli Sparks', email: 'eli@example.com', phone: '555 0100' });
    const job = jobSchema.parse((await t.call('POST', '/api/jobs', { customer_id: dana.id, title: 'Leak' })).json);
    t.clock.advance();
    const archived = await t.call('POST', `/api/customers/${dana.id}/archive`);
    expect(archived.status).toBe(200);
    expect(customerSchema.parse(archived.json).archived_dt).toBe(t.clock.now());
    expect(archived.headers.get('etag')).toBe(`"${t.clock.now()}"`);
    expect((await t.list()).headers.get(totalCountHeader)).toBe('1');
    expect(await names({})).toEqual(['Eli Sparks']);
    expect(await names({ queryText: 'dana' })).toEqual([]);
    expect(await names({ queryText: '4895133' })).toEqual([]);
    expect(await names({ archived: true })).toEqual(['Dana Plumber']);
    expect(await names({ archived: true, queryText: 'PLUMB' })).toEqual(['Dana Plumber']);
    expect(await names({ archived: true, queryText: 'eli' })).toEqual([]);
    // The customer is still readable by id, and their job is kept.
    expect((await t.call('GET', `/api/customers/${dana.id}`)).status).toBe(200);
    expect(jobSchema.parse((await t.call('GET', `/api/jobs/${job.id}`)).json).customer_name).toBe('Dana Plumber');
    // No new job for an archived customer.
    const refused = await t.call('POST', '/api/jobs', { customer_id: dana.id, title: 'Another' });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ issues: [{ path: 'customer_id', message: expect.stringContaining('archived') }] });
    // Deleting for good is refused while they have a job.
    const withJobs = await t.call('DELETE', `/api/customers/${dana.id}`);
    expect(withJobs.status).toBe(409);
    expect(withJobs.json).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('a job') });
    // Restore: back everywhere.
    t.clock.advance();
    const restored = await t.call('POST', `/api/customers/${dana.id}/restore`);
    expect(customerSchema.parse(restored.json).archived_dt).toBeNull();
    expect(await names({ queryText: '4895133' })).toEqual(['Dana Plumber']);
    expect((await t.list()).headers.get(totalCountHeader)).toBe('2');
    expect(await names({ archived: true })).toEqual([]);
    t.api.store.run("INSERT INTO customers_fts (customers_fts) VALUES ('integrity-check')");
  });

  it('deletes only an archived customer without jobs, and says so on the change feed', async () => {
    const events: unknown[] = [];
    t = await startApi({ onChange: (e) => events.push(e) });
    const eli = customerSchema.parse((await t.create({ full_name: 'Eli', email: 'eli@example.com', phone: '555 0100' })).json);
    const notArchived = await t.call('DELETE', `/api/customers/${eli.id}`);
    expect(notArchived.status).toBe(409);
    expect((await t.call('POST', `/api/customers/${eli.id}/archive`)).status).toBe(200);
    const gone = await t.call('DELETE', `/api/customers/${eli.id}`);
    expect(gone.status).toBe(200);
    expect(customerSchema.parse(gone.json).id).toBe(eli.id);
    expect((await t.call('GET', `/api/customers/${eli.id}`)).status).toBe(404);
    expect((await t.call('POST', `/api/customers/${eli.id}/restore`)).status).toBe(404);
    expect(events).toEqual([
      { entity: 'customer', kind: 'created', ids: [eli.id] },
      { entity: 'customer', kind: 'updated', ids: [eli.id] },
      { entity: 'customer', kind: 'deleted', ids: [eli.id] },
    ]);
    expect(t.api.store.get('SELECT count(*) AS n FROM customers_fts')).toEqual({ n: 0 });
  });

  it('takes an archived job out of lists, searches and counts, and restores it; deletes it for good only when archived', async () => {
    t = await startApi();
    const dana = customerSchema.parse((await t.create({ full_name: 'Dana', email: 'dana@example.com', phone: '555 0100' })).json);
    const make = async (title: string) => jobSchema.parse((await t.call('POST', '/api/jobs', { customer_id: dana.id, title })).json);
    const leak = await make('Leak under sink');
    await make('Boiler service');
    const counts = async () => jobCountsSchema.parse((await t.call('GET', '/api/jobs/counts')).json);
    const titles = async (filter: unknown) =>
      jobs.parse((await t.call('GET', `/api/jobs?filterJson=${encodeURIComponent(JSON.stringify(filter))}`)).json).map((j) => j.title);
    expect((await counts()).quote).toBe(2);
    t.clock.advance();
    expect((await t.call('POST', `/api/jobs/${leak.id}/archive`)).status).toBe(200);
    expect(await counts()).toMatchObject({ all: 1, quote: 1 });
    expect(await titles({})).toEqual(['Boiler service']);
    expect(await titles({ queryText: 'leak' })).toEqual([]);
    expect(await titles({ status: 'quote' })).toEqual(['Boiler service']);
    expect(await titles({ customerId: dana.id })).toEqual(['Boiler service']);
    expect(await titles({ archived: true })).toEqual(['Leak under sink']);
    // Archived jobs cannot be changed until restored.
    expect((await t.call('PATCH', `/api/jobs/${leak.id}`, { title: 'x' })).status).toBe(409);
    expect((await t.call('POST', `/api/jobs/${leak.id}/move`, { status: 'cancelled' })).status).toBe(409);
    // Renaming the customer does not bring the archived job back into the status index.
    await t.call('PUT', `/api/customers/${dana.id}`, { full_name: 'Dana Leakfinder', email: 'dana@example.com', phone: '555 0100' });
    expect(await titles({ queryText: 'leakfinder', status: 'quote' })).toEqual(['Boiler service']);
    t.clock.advance();
    expect((await t.call('POST', `/api/jobs/${leak.id}/restore`)).status).toBe(200);
    expect(await counts()).toMatchObject({ all: 2, quote: 2 });
    expect((await titles({ queryText: 'leak', status: 'quote' })).sort()).toEqual(['Boiler service', 'Leak under sink']);
    expect((await t.call('DELETE', `/api/jobs/${leak.id}`)).status).toBe(409);
    await t.call('POST', `/api/jobs/${leak.id}/archive`);
    expect((await t.call('DELETE', `/api/jobs/${leak.id}`)).status).toBe(200);
    expect((await t.call('GET', `/api/jobs/${leak.id}`)).status).toBe(404);
    expect(await counts()).toMatchObject({ all: 1, quote: 1 });
    t.api.store.run("INSERT INTO jobs_fts (jobs_fts) VALUES ('integrity-check')");
    t.api.store.run("INSERT INTO jobs_status_fts (jobs_status_fts) VALUES ('integrity-check')");
  });
});

describe('duplicate warning (decision 0091)', () => {
  it('finds customers with the same email (any case) or the same phone digits', async () => {
    t = await startApi();
    const dana = customerSchema.parse((await t.create({ full_name: 'Dana Plumber', email: 'Dana@Example.com', phone: '1-836-489-5133' })).json);
    const check = async (filter: unknown) => {
      const res = await t.call('GET', `/api/customers/duplicates?filterJson=${encodeURIComponent(JSON.stringify(filter))}`);
      expect(res.status).toBe(200);
      return z.array(customerDuplicateSchema).parse(res.json).map((d) => [d.customer.full_name, d.matched]);
    };
    expect(await check({ email: ' dana@example.COM ', phone: '999' })).toEqual([['Dana Plumber', ['email']]]);
    expect(await check({ email: 'other@example.com', phone: '(836) 489 5133' })).toEqual([['Dana Plumber', ['phone']]]);
    expect(await check({ email: 'dana@example.com', phone: '18364895133' })).toEqual([['Dana Plumber', ['email', 'phone']]]);
    expect(await check({ email: 'dana@example.com', excludeId: dana.id })).toEqual([]);
    expect(await check({ phone: '5133' })).toEqual([]);
    expect(await check({})).toEqual([]);
    const bad = await t.call('GET', `/api/customers/duplicates?filterJson=${encodeURIComponent('{"email":5}')}`);
    expect(bad.status).toBe(400);
    await t.call('POST', `/api/customers/${dana.id}/archive`);
    expect(await check({ email: 'dana@example.com' })).toEqual([]);
  });
});

describe('one-click status moves and their undo (decision 0092)', () => {
  const moveTo = (job: Job, body: unknown) => {
    t.clock.advance();
    return t.call('POST', `/api/jobs/${job.id}/move`, body);
  };

  it('moves along the lifecycle, asks for a start only when scheduling, and reverts exactly the last move, paid included', async () => {
    t = await startApi();
    const dana = customerSchema.parse((await t.create({ full_name: 'Dana', email: 'dana@example.com', phone: '555 0100' })).json);
    let job = jobSchema.parse((await t.call('POST', '/api/jobs', { customer_id: dana.id, title: 'Leak', price_cents: 5000 })).json);
    const noStart = await moveTo(job, { status: 'scheduled' });
    expect(noStart.status).toBe(400);
    expect(noStart.json).toMatchObject({ issues: [{ path: 'scheduled_start_dt' }] });
    const start = Date.UTC(2026, 11, 1, 9);
    for (const [status, extra] of [['scheduled', { scheduled_start_dt: start }], ['in_progress', {}], ['completed', {}], ['invoiced', {}], ['paid', {}]] as const) {
      const res = await moveTo(job, { status, ...extra });
      expect(res.status, status).toBe(200);
      job = jobSchema.parse(res.json);
      expect(job.status).toBe(status);
      expect(res.headers.get('etag')).toBe(`"${job.modified_dt}"`);
    }
    expect(job.scheduled_start_dt).toBe(start);
    const forbidden = await moveTo(job, { status: 'cancelled' });
    expect(forbidden.status).toBe(409);
    expect(forbidden.json).toMatchObject({ code: 'CONFLICT', allowed: [] });
    // PATCH still refuses to leave paid: the lifecycle holds for everything but a revert.
    expect((await t.call('PATCH', `/api/jobs/${job.id}`, { status: 'invoiced' })).status).toBe(409);
    // Undo the move to paid: back to invoiced, with no paid date.
    t.clock.advance();
    const undone = await t.call('POST', `/api/jobs/${job.id}/revert`, { version: job.modified_dt });
    expect(undone.status).toBe(200);
    const back = jobSchema.parse(undone.json);
    expect(back.status).toBe('invoiced');
    expect(back.status_dates.paid).toBeNull();
    expect(back.modified_dt).toBeGreaterThan(job.modified_dt);
    expect(jobCountsSchema.parse((await t.call('GET', '/api/jobs/counts')).json)).toMatchObject({ invoiced: 1, paid: 0 });
    // Only once, and only the last move: the invoiced move cannot be reverted now.
    expect((await t.call('POST', `/api/jobs/${job.id}/revert`, { version: job.modified_dt })).status).toBe(409);
    expect((await t.call('POST', `/api/jobs/${job.id}/revert`, { version: back.modified_dt })).status).toBe(409);
  });

  it('restores the schedule a scheduling move replaced, and refuses once the job changed or the move is old', async () => {
    t = await startApi();
    const dana = customerSchema.parse((await t.create({ full_name: 'Dana', email: 'dana@example.com', phone: '555 0100' })).json);
    const job = jobSchema.parse((await t.call('POST', '/api/jobs', { customer_id: dana.id, title: 'Leak' })).json);
    const moved = jobSchema.parse((await moveTo(job, { status: 'scheduled', scheduled_start_dt: 1000, scheduled_end_dt: 2000 })).json);
    const undone = jobSchema.parse((await t.call('POST', `/api/jobs/${job.id}/revert`, { version: moved.modified_dt })).json);
    expect(undone).toMatchObject({ status: 'quote', scheduled_start_dt: null, scheduled_end_dt: null });
    expect(undone.status_dates.scheduled).toBeNull();

    const again = jobSchema.parse((await moveTo(undone, { status: 'cancelled' })).json);
    t.clock.advance();
    await t.call('PATCH', `/api/jobs/${job.id}`, { title: 'Leak, edited' });
    const stale = await t.call('POST', `/api/jobs/${job.id}/revert`, { version: again.modified_dt });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ message: expect.stringContaining('no status move') });

    const late = jobSchema.parse((await moveTo(jobSchema.parse((await t.call('GET', `/api/jobs/${job.id}`)).json), { status: 'quote' })).json);
    t.clock.advance(11 * 60 * 1000);
    expect((await t.call('POST', `/api/jobs/${job.id}/revert`, { version: late.modified_dt })).status).toBe(409);
    expect((await t.call('POST', `/api/jobs/${job.id}/revert`, {})).status).toBe(400);
  });
});
