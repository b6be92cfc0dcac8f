// A customer's notes and service addresses (decision 0162), beside the spec's customer.
import { customerDetailsSchema, customerSchema } from '@otto/api-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from './helpers';

let t: TestApi;
afterEach(() => t.api.close());

const json = { 'content-type': 'application/json' };

describe("a customer's details", () => {
  it('start empty, are replaced at the version read, and leave the customer as the spec has it', async () => {
    t = await startApi();
    const customer = customerSchema.parse((await t.create({ full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '555 0100' })).json);
    const empty = await t.call('GET', `/api/customers/${customer.id}/details`);
    expect(empty.status).toBe(200);
    expect(empty.headers.get('etag')).toBe('"0"');
    expect(customerDetailsSchema.parse(empty.json)).toEqual({ customer_id: customer.id, notes: '', addresses: [], modified_dt: 0 });
    const events: unknown[] = [];
    t.api.onChange((event) => events.push(event));
    t.clock.advance();
    const body = { notes: ' Dog in the garden. Gate code 4411. ', addresses: [{ label: 'Home', address: '1 High Street, Leeds' }, { address: '7 Mill Lane' }] };
    const saved = await t.call('PUT', `/api/customers/${customer.id}/details`, body, { headers: { ...json, 'if-match': '"0"' } });
    expect(saved.status, saved.text).toBe(200);
    const details = customerDetailsSchema.parse(saved.json);
    expect(details).toMatchObject({ notes: 'Dog in the garden. Gate code 4411.', addresses: [{ label: 'Home', address: '1 High Street, Leeds' }, { label: '', address: '7 Mill Lane' }] });
    expect(details.modified_dt).toBe(t.clock.now());
    // Other tabs hear of it as a change of the customer.
    expect(events).toEqual([{ entity: 'customer', kind: 'updated', ids: [customer.id] }]);
    // Saved again from the old version: refused, nothing lost.
    const stale = await t.call('PUT', `/api/customers/${customer.id}/details`, { notes: 'Overwritten' }, { headers: { ...json, 'if-match': '"0"' } });
    expect(stale.status).toBe(412);
    expect(customerDetailsSchema.parse((await t.call('GET', `/api/customers/${customer.id}/details`)).json).notes).toBe('Dog in the garden. Gate code 4411.');
    // The customer itself is untouched.
    expect(customerSchema.parse((await t.call('GET', `/api/customers/${customer.id}`)).json)).toEqual(customer);
  });

  it('refuse bad input in words, a missing customer with 404, and an archived one with 409', async () => {
    t = await startApi();
    const customer = customerSchema.parse((await t.create({ full_name: 'Bo', email: '', phone: '555 0101' })).json);
    for (const [body, words] of [
      [{ addresses: [{ label: 'Home', address: '  ' }] }, 'Enter the address'],
      [{ addresses: Array.from({ length: 21 }, (_, i) => ({ address: `${i} Road` })) }, 'at most 20'],
      [{ notes: 'x'.repeat(10_001) }, 'at most 10000'],
      [{ notes: 5 }, 'must be text'],
    ] as const) {
      const res = await t.call('PUT', `/api/customers/${customer.id}/details`, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.text).toContain(words);
    }
    expect((await t.call('GET', '/api/customers/999/details')).status).toBe(404);
    expect((await t.call('GET', '/api/customers/abc/details')).status).toBe(404);
    expect((await t.call('PUT', '/api/customers/999/details', { notes: 'x' })).status).toBe(404);
    expect((await t.call('POST', `/api/customers/${customer.id}/archive`)).status).toBe(200);
    expect((await t.call('PUT', `/api/customers/${customer.id}/details`, { notes: 'x' })).status).toBe(409);
    // Deleting the customer for good takes their details with them.
    expect((await t.call('DELETE', `/api/customers/${customer.id}`)).status).toBe(200);
    expect(t.api.store.get('SELECT count(*) AS n FROM customer_details')).toEqual({ n: 0 });
  });
});
