import type { ChangeEvent } from '@otto/api-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from './helpers';

let t: TestApi;
let events: ChangeEvent[];
afterEach(() => t.api.close());

async function start() {
  t = await startApi();
  events = [];
  t.api.onChange((event) => events.push(event));
}

const fields = { full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '555 0100' };

async function customer(): Promise<{ id: string; modified_dt: number }> {
  const created = await t.create(fields);
  events = [];
  return created.json as { id: string; modified_dt: number };
}

async function job(customerId: string) {
  t.clock.advance();
  const created = await t.call('POST', '/api/jobs', { customer_id: customerId, title: 'Boiler service' });
  events = [];
  return created.json as { id: string; modified_dt: number };
}

describe('the change feed of createMockApi', () => {
  it('publishes a customer create, update and patch with the customer id, once each', async () => {
    await start();
    const created = (await t.create(fields)).json as { id: string };
    expect(events).toEqual([{ entity: 'customer', kind: 'created', ids: [created.id] }]);
    await t.call('PUT', `/api/customers/${created.id}`, { ...fields, full_name: 'Ada King' });
    await t.call('PATCH', `/api/customers/${created.id}`, { ...fields, full_name: 'Ada Byron' });
    expect(events.slice(1)).toEqual([
      { entity: 'customer', kind: 'updated', ids: [created.id] },
      { entity: 'customer', kind: 'updated', ids: [created.id] },
    ]);
  });

  it('publishes a job create, update, patch and status move', async () => {
    await start();
    const c = await customer();
    const created = (await t.call('POST', '/api/jobs', { customer_id: c.id, title: 'Boiler service' })).json as { id: string };
    await t.call('PUT', `/api/jobs/${created.id}`, { customer_id: c.id, title: 'Boiler repair', status: 'quote' });
    await t.call('PATCH', `/api/jobs/${created.id}`, { status: 'cancelled' });
    expect(events).toEqual([
      { entity: 'job', kind: 'created', ids: [created.id] },
      { entity: 'job', kind: 'updated', ids: [created.id] },
      { entity: 'job', kind: 'updated', ids: [created.id] },
    ]);
  });

  it('publishes nothing for reads, for the spec null, or for a write that was refused', async () => {
    await start();
    const c = await customer();
    await t.call('GET', '/api/customers');
    await t.call('GET', `/api/customers/${c.id}`);
    expect((await t.call('POST', '/api/customers', { full_name: 'No phone', email: 'n@example.com' })).json).toBeNull();
    expect((await t.call('PUT', `/api/customers/${c.id}`, { full_name: 5 })).json).toBeNull();
    expect((await t.call('POST', '/api/customers', { ...fields, email: 'not an email' })).status).toBe(400);
    expect((await t.call('PUT', '/api/customers/999999', fields)).status).toBe(404);
    const j = await job(c.id);
    await t.call('PATCH', `/api/jobs/${j.id}`, { status: 'cancelled' });
    events = [];
    expect((await t.call('PATCH', `/api/jobs/${j.id}`, { status: 'paid' })).status).toBe(409);
    expect((await t.call('POST', '/api/jobs', { customer_id: '999999', title: 'Nobody' })).status).toBe(400);
    expect(events).toEqual([]);
  });

  it('publishes nothing for a write that SQLite rolled back', async () => {
    await start();
    const c = await customer();
    t.api.store.exec(
      "CREATE TEMP TRIGGER refuse_boom AFTER UPDATE ON customers WHEN NEW.full_name = 'Boom' BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END",
    );
    const failed = await t.call('PUT', `/api/customers/${c.id}`, { ...fields, full_name: 'Boom' });
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(((await t.call('GET', `/api/customers/${c.id}`)).json as { full_name: string }).full_name).toBe('Ada Lovelace');
    expect(events).toEqual([]);
  });

  it('publishes after the commit: a listener reads the new data', async () => {
    await start();
    const c = await customer();
    const seen: string[] = [];
    t.api.onChange(() => {
      seen.push(t.api.store.get<{ full_name: string }>('SELECT full_name FROM customers WHERE id = ?', [Number(c.id)])?.full_name ?? '');
    });
    await t.call('PUT', `/api/customers/${c.id}`, { ...fields, full_name: 'Ada King' });
    expect(seen).toEqual(['Ada King']);
  });

  it('stops calling a listener once unsubscribed, and a failing listener does not fail the write', async () => {
    await start();
    const stop = t.api.onChange(() => {
      throw new Error('listener broke');
    });
    const saved = await t.create(fields);
    expect(saved.status).toBe(200);
    expect(t.log.lines.join('\n')).toMatch(/A change-feed listener failed/);
    stop();
    events = [];
    await t.create(fields);
    expect(events).toHaveLength(1);
  });

  it('takes a listener in the options too', async () => {
    const seen: ChangeEvent[] = [];
    t = await startApi({ onChange: (event) => seen.push(event) });
    const created = (await t.create(fields)).json as { id: string };
    expect(seen).toEqual([{ entity: 'customer', kind: 'created', ids: [created.id] }]);
  });
});

describe('optimistic concurrency (ETag and If-Match)', () => {
  it('answers one record with its modified_dt as the ETag', async () => {
    await start();
    const c = await customer();
    expect((await t.call('GET', `/api/customers/${c.id}`)).headers.get('etag')).toBe(`"${c.modified_dt}"`);
    const j = await job(c.id);
    expect((await t.call('GET', `/api/jobs/${j.id}`)).headers.get('etag')).toBe(`"${j.modified_dt}"`);
  });

  it('saves when If-Match names the current version, and answers with the new ETag', async () => {
    await start();
    const c = await customer();
    t.clock.advance();
    const saved = await t.call('PUT', `/api/customers/${c.id}`, { ...fields, full_name: 'Ada King' }, { headers: { 'content-type': 'application/json', 'if-match': `"${c.modified_dt}"` } });
    expect(saved.status).toBe(200);
    const now = (saved.json as { modified_dt: number }).modified_dt;
    expect(saved.headers.get('etag')).toBe(`"${now}"`);
    expect(events).toHaveLength(1);
  });

  it('answers 412 for a stale If-Match (a version the record had before its last write), saves nothing and publishes nothing', async () => {
    await start();
    const c = await customer();
    const j = await job(c.id);
    const etag = async (path: string) => (await t.call('GET', path)).headers.get('etag') as string;
    // Each record is written once after its tag was read: the tag read before is stale now.
    const staleCustomerTag = await etag(`/api/customers/${c.id}`);
    const staleJobTag = await etag(`/api/jobs/${j.id}`);
    t.clock.advance();
    expect((await t.call('PUT', `/api/customers/${c.id}`, { ...fields, full_name: 'Ada Byron' })).status).toBe(200);
    expect((await t.call('PATCH', `/api/jobs/${j.id}`, { title: 'Boiler repair' })).status).toBe(200);
    expect(await etag(`/api/customers/${c.id}`)).not.toBe(staleCustomerTag);
    expect(await etag(`/api/jobs/${j.id}`)).not.toBe(staleJobTag);
    events = [];

    const refused = await t.call('PUT', `/api/customers/${c.id}`, { ...fields, full_name: 'Ada King' }, { headers: { 'content-type': 'application/json', 'if-match': staleCustomerTag } });
    expect(refused.status).toBe(412);
    expect(refused.json).toMatchObject({ code: 'PRECONDITION_FAILED', message: expect.stringMatching(/changed since you loaded it/) });
    expect((await t.call('PATCH', `/api/jobs/${j.id}`, { title: 'Other' }, { headers: { 'content-type': 'application/json', 'if-match': staleJobTag } })).status).toBe(412);
    expect(((await t.call('GET', `/api/customers/${c.id}`)).json as { full_name: string }).full_name).toBe('Ada Byron');
    expect(((await t.call('GET', `/api/jobs/${j.id}`)).json as { title: string }).title).toBe('Boiler repair');
    expect(events).toEqual([]);
  });

  it('answers 412 for a weak tag, even of the current version (If-Match compares strongly)', async () => {
    await start();
    const c = await customer();
    const j = await job(c.id);
    const current = (await t.call('GET', `/api/jobs/${j.id}`)).headers.get('etag') as string;
    const weak = { 'content-type': 'application/json', 'if-match': `W/${current}` };
    expect((await t.call('PATCH', `/api/jobs/${j.id}`, { title: 'Other' }, { headers: weak })).status).toBe(412);
    expect(((await t.call('GET', `/api/jobs/${j.id}`)).json as { title: string }).title).toBe('Boiler service');
    // The same tag without W/ is the current version: saved.
    expect((await t.call('PATCH', `/api/jobs/${j.id}`, { title: 'Other' }, { headers: { 'content-type': 'application/json', 'if-match': current } })).status).toBe(200);
  });

  it('saves over any version with If-Match: *, and 404s a missing record before any precondition', async () => {
    await start();
    const c = await customer();
    const any = { 'content-type': 'application/json', 'if-match': '*' };
    expect((await t.call('PUT', `/api/customers/${c.id}`, fields, { headers: any })).status).toBe(200);
    expect((await t.call('PUT', '/api/customers/424242', fields, { headers: any })).status).toBe(404);
  });
});
