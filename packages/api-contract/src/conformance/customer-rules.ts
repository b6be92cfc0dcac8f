import { z } from 'zod';
import { customerDetailsSchema, customerSchema, type Customer } from '../customer';
import { limits } from '../limits';
import { check, expectBody, expectError, expectStatus, tick } from './kit-client';
import type { ConformanceRule } from './rule-context';

const dayMs = 24 * 60 * 60 * 1000;

/** Fails unless `time` is epoch milliseconds close to now (catches seconds, or a fixed value). */
function checkRecent(time: number, what: string): void {
  check(Math.abs(time - Date.now()) < dayMs, `${what} should be now in epoch milliseconds, got ${time}`);
}

/** Creating, reading and updating one customer (spec section 5 and 7, decision 0001). */
export const customerRules: ConformanceRule[] = [
  {
    id: 'customers.create',
    title: 'POST /customers answers 200 with the customer: a string id, the fields sent, created_dt = modified_dt = now.',
    async run({ api, token }) {
      const sent = { full_name: `Ada Create ${token}`, email: `ada.${token}@example.com`, phone: '555 0100' };
      const reply = await api.call('POST', '/customers', { body: sent });
      expectStatus(reply, 200);
      const customer = expectBody(reply, customerSchema, 'a customer');
      check(/^\d+$/.test(customer.id), `the id should be a string of digits, got ${JSON.stringify(customer.id)}`);
      check(customer.full_name === sent.full_name && customer.email === sent.email && customer.phone === sent.phone,
        () => `the fields should be the ones sent: ${reply.describe()}`);
      check(customer.created_dt === customer.modified_dt, `created_dt and modified_dt should both be now: ${reply.describe()}`);
      checkRecent(customer.created_dt, 'created_dt');
    },
  },
  {
    id: 'customers.create.phone-only',
    title: 'POST /customers with an empty email (a customer reached by phone only) answers 200 and keeps the email empty; such customers are nobody\'s duplicates by email.',
    async run({ api, token }) {
      const sent = { full_name: `Pat Phone ${token}`, email: '', phone: '555 0177' };
      const reply = await api.call('POST', '/customers', { body: sent });
      expectStatus(reply, 200, 'creating a customer with no email');
      const customer = expectBody(reply, customerSchema, 'a customer');
      check(customer.email === '', () => `the email should stay empty: ${reply.describe()}`);
      const again = await api.call('POST', '/customers', { body: { ...sent, full_name: `Pat Phone Two ${token}`, phone: '555 0178' } });
      expectStatus(again, 200, 'a second customer with no email');
    },
  },
  {
    id: 'customers.details',
    title: "GET /customers/{id}/details answers the customer's notes and service addresses (empty at first); PUT replaces them at the version read (412 otherwise) and leaves the customer as it was.",
    async run({ api, token }) {
      const created = expectBody(await api.call('POST', '/customers', { body: { full_name: `Dee Details ${token}`, email: '', phone: '555 0179' } }), customerSchema, 'a customer');
      const read = await api.call('GET', `/customers/${created.id}/details`);
      expectStatus(read, 200);
      const first = expectBody(read, customerDetailsSchema, 'the details');
      check(first.notes === '' && first.addresses.length === 0, () => `expected empty details: ${read.describe()}`);
      await tick();
      const body = { notes: `Gate code ${token}`, addresses: [{ label: 'Home', address: '1 High Street' }, { label: 'Rental', address: '7 Mill Lane' }] };
      const saved = await api.call('PUT', `/customers/${created.id}/details`, { body, headers: { 'if-match': `"${first.modified_dt}"` } });
      expectStatus(saved, 200, 'saving the details');
      const details = expectBody(saved, customerDetailsSchema, 'the details');
      check(details.notes === body.notes && JSON.stringify(details.addresses) === JSON.stringify(body.addresses), () => `expected what was sent: ${saved.describe()}`);
      const stale = await api.call('PUT', `/customers/${created.id}/details`, { body: { notes: 'stale' }, headers: { 'if-match': `"${first.modified_dt}"` } });
      expectStatus(stale, 412, 'saving from an old version');
      const customer = expectBody(await api.call('GET', `/customers/${created.id}`), customerSchema, 'the customer');
      check(customer.modified_dt === created.modified_dt, () => `the customer should be unchanged: ${JSON.stringify(customer)}`);
    },
  },
  {
    id: 'customers.create.trims-and-ignores',
    title: 'POST /customers trims the values and ignores id, created_dt and fields it does not take.',
    async run({ api, token }) {
      const reply = await api.call('POST', '/customers', {
        body: { full_name: `  Trim ${token}  `, email: ` trim.${token}@example.com `, phone: ' 555 0101 ', id: '999999999999', created_dt: 1, extra: true },
      });
      expectStatus(reply, 200);
      const customer = expectBody(reply, customerSchema, 'a customer');
      check(customer.full_name === `Trim ${token}` && customer.phone === '555 0101', () => `values should be trimmed: ${reply.describe()}`);
      check(customer.id !== '999999999999' && customer.created_dt !== 1, () => `id and created_dt from the body should be ignored: ${reply.describe()}`);
      check(!('extra' in (reply.json as object)), () => `unknown fields should not be stored: ${reply.describe()}`);
    },
  },
  {
    id: 'customers.get',
    title: 'GET /customers/{id} answers 200 with that customer.',
    async run(ctx) {
      const created = await ctx.createCustomer(`${ctx.token}get`);
      const reply = await ctx.api.call('GET', `/customers/${created.id}`);
      expectStatus(reply, 200);
      const customer = expectBody(reply, customerSchema, 'a customer');
      check(JSON.stringify(customer) === JSON.stringify(created), () => `expected the customer as created: ${reply.describe()}`);
    },
  },
  {
    id: 'customers.get.missing',
    title: 'GET /customers/{id} for a customer that does not exist answers 404 with a JSON error NOT_FOUND.',
    async run({ api }) {
      for (const id of ['999999999999999', 'abc']) expectError(await api.call('GET', `/customers/${id}`), 404, 'NOT_FOUND');
    },
  },
  {
    id: 'customers.create.shape-null',
    title: 'POST /customers with a body that fails the shape check answers 200 with null and creates nothing.',
    async run({ api, token }) {
      const word = `${token}nl`;
      const bodies = [{ full_name: `Null ${word}`, email: `n.${word}@example.com` }, { full_name: `Null ${word}`, email: 5, phone: '1' },
        { full_name: `Null ${word}`, email: `n.${word}@example.com`, phone: '1', id: 7 }, [], 'text', null];
      for (const body of bodies) {
        const reply = await api.call('POST', '/customers', { body });
        check(reply.status === 200 && reply.text.trim() === 'null', () => `expected 200 with null: ${reply.describe()}`);
      }
      const search = await api.call('GET', '/customers', { filter: { queryText: word } });
      check(Array.isArray(search.json) && search.json.length === 0, () => `nothing should have been created: ${search.describe()}`);
    },
  },
  {
    id: 'customers.create.field-rules',
    title: 'POST /customers with a well-shaped body that breaks a field rule answers 400 VALIDATION_FAILED with issues per field.',
    async run({ api }) {
      const reply = await api.call('POST', '/customers', { body: { full_name: ' ', email: 'not-an-email', phone: 'x'.repeat(41) } });
      const error = expectError(reply, 400, 'VALIDATION_FAILED');
      const paths = new Set((error.issues ?? []).map((i) => i.path));
      check(['full_name', 'email', 'phone'].every((p) => paths.has(p)), () => `expected issues for full_name, email and phone: ${reply.describe()}`);
    },
  },
  {
    id: 'customers.create.invalid-json',
    title: 'POST /customers with a body that is not JSON (or is empty) answers 400 with a JSON error INVALID_JSON.',
    async run({ api }) {
      expectError(await api.call('POST', '/customers', { rawBody: '{"full_name":' }), 400, 'INVALID_JSON');
      expectError(await api.call('POST', '/customers', { rawBody: '' }), 400, 'INVALID_JSON');
    },
  },
  {
    id: 'customers.create.too-large',
    title: `POST /customers with a body over ${limits.maxBodyBytes / 1024} KiB answers 413 PAYLOAD_TOO_LARGE.`,
    async run({ api, token }) {
      const body = { full_name: `Huge ${token} ${'x'.repeat(limits.maxBodyBytes)}`, email: 'h@example.com', phone: '1' };
      expectError(await api.call('POST', '/customers', { body }), 413, 'PAYLOAD_TOO_LARGE');
    },
  },
  ...(['PUT', 'PATCH'] as const).map(
    (method): ConformanceRule => ({
      id: method === 'PUT' ? 'customers.update.put' : 'customers.update.patch',
      title: method === 'PUT'
        ? 'PUT /customers/{id} takes only full_name, email and phone from the body and sets modified_dt to now.'
        : 'PATCH /customers/{id} is accepted and behaves exactly like PUT.',
      async run(ctx) {
        const created = await ctx.createCustomer(`${ctx.token}${method.toLowerCase()}`);
        await tick();
        const word = `${ctx.token}${method.toLowerCase()}new`;
        const sent = { id: '999999999999', full_name: `Renamed ${word}`, email: `renamed.${word}@example.com`, phone: '555 0199', created_dt: 1, modified_dt: 2 };
        const reply = await ctx.api.call(method, `/customers/${created.id}`, { body: sent });
        expectStatus(reply, 200);
        const updated = expectBody(reply, customerSchema, 'the updated customer');
        const expected: Customer = { ...created, full_name: sent.full_name, email: sent.email, phone: sent.phone, modified_dt: updated.modified_dt };
        check(JSON.stringify(updated) === JSON.stringify(expected), () => `expected ${JSON.stringify(expected)} (id and created_dt kept): ${reply.describe()}`);
        check(updated.modified_dt > created.modified_dt, () => `modified_dt should move forward from ${created.modified_dt}: ${reply.describe()}`);
        checkRecent(updated.modified_dt, 'modified_dt');
        const again = await ctx.api.call('GET', `/customers/${created.id}`);
        check(JSON.stringify(again.json) === JSON.stringify(updated), () => `the change should be stored: ${again.describe()}`);
      },
    }),
  ),
  {
    id: 'customers.update.shape-null',
    title: 'PUT /customers/{id} with a body that fails the shape check answers 200 with null and changes nothing.',
    async run(ctx) {
      const created = await ctx.createCustomer(`${ctx.token}unchanged`);
      const reply = await ctx.api.call('PUT', `/customers/${created.id}`, { body: { full_name: 'Only a name' } });
      check(reply.status === 200 && reply.text.trim() === 'null', () => `expected 200 with null: ${reply.describe()}`);
      const again = await ctx.api.call('GET', `/customers/${created.id}`);
      check(JSON.stringify(again.json) === JSON.stringify(created), () => `the customer should be unchanged: ${again.describe()}`);
    },
  },
  {
    id: 'customers.update.missing',
    title: 'PUT /customers/{id} for a customer that does not exist answers 404 with a JSON error NOT_FOUND.',
    async run({ api }) {
      const body = { full_name: 'Nobody', email: 'nobody@example.com', phone: '555 0100' };
      expectError(await api.call('PUT', '/customers/999999999999999', { body }), 404, 'NOT_FOUND');
    },
  },
  {
    id: 'customers.update.field-rules',
    title: 'PUT /customers/{id} with a field that breaks a rule answers 400 VALIDATION_FAILED and changes nothing.',
    async run(ctx) {
      const created = await ctx.createCustomer(`${ctx.token}badput`);
      const reply = await ctx.api.call('PUT', `/customers/${created.id}`, { body: { full_name: created.full_name, email: 'nope', phone: created.phone } });
      const error = expectError(reply, 400, 'VALIDATION_FAILED');
      check((error.issues ?? []).some((i) => i.path === 'email'), () => `expected an issue for email: ${reply.describe()}`);
      const again = await ctx.api.call('GET', `/customers/${created.id}`);
      check(JSON.stringify(again.json) === JSON.stringify(created), () => `the customer should be unchanged: ${again.describe()}`);
    },
  },
];

export const customerListSchema = z.array(customerSchema);
