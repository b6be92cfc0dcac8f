// Every limit docs/reliability.md names, at its boundary and one past it, on create and on update:
// the boundary is kept exactly, one past it is refused in words and changes nothing. The numbers
// are written out (not read from `limits`) because they are what the document promises.
import { customerSchema, jobSchema, totalCountHeader } from '@otto/api-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../src/node';
import { capturingLogger, startApi, type TestApi } from './helpers';

let t: TestApi;
let customerId: string;
let jobId: string;
beforeAll(async () => {
  // 1 001 customers (and their jobs), so that a page of 1 000 is a real page.
  t = await startApi({ seed: { count: 1001, fakerSeed: 20 } });
  customerId = customerSchema.parse((await t.create({ full_name: 'Limit Tester', email: 'limits@example.com', phone: '555 0100' })).json).id;
  jobId = jobSchema.parse((await t.call('POST', '/api/jobs', { customer_id: customerId, title: 'Limit job' })).json).id;
});
afterAll(() => t.api.close());

const counts = () => ({
  customers: t.api.store.get<{ n: number }>('SELECT count(*) AS n FROM customers')?.n,
  jobs: t.api.store.get<{ n: number }>('SELECT count(*) AS n FROM jobs')?.n,
});
const tooLong = (max: number) => ({
  code: 'VALIDATION_FAILED',
  issues: expect.arrayContaining([expect.objectContaining({ message: `Use at most ${max} characters.` })]),
});

describe('customer field lengths', () => {
  const fields = [
    { field: 'full_name', max: 200, value: (n: number) => 'x'.repeat(n) },
    { field: 'email', max: 254, value: (n: number) => `${'a'.repeat(n - '@example.com'.length)}@example.com` },
    { field: 'phone', max: 40, value: (n: number) => '5'.repeat(n) },
  ] as const;
  const base = { full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '555 0100' };

  describe.each(fields)('$field ($max characters)', ({ field, max, value }) => {
    it('keeps exactly the longest value on create, and refuses one character more', async () => {
      const atLimit = value(max);
      expect(atLimit).toHaveLength(max);
      const created = await t.create({ ...base, [field]: atLimit });
      expect(created.status).toBe(200);
      const customer = customerSchema.parse(created.json);
      expect(customer[field]).toBe(atLimit);
      expect((await t.call('GET', `/api/customers/${customer.id}`)).json).toEqual(customer);

      const before = counts();
      const refused = await t.create({ ...base, [field]: value(max + 1) });
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject(tooLong(max));
      expect((refused.json as { issues: { path: string }[] }).issues.map((issue) => issue.path)).toEqual([field]);
      expect(counts()).toEqual(before);
    });

    it.each(['PUT', 'PATCH'])('keeps exactly the longest value on %s, and refuses one character more', async (method) => {
      const path = `/api/customers/${customerId}`;
      const saved = await t.call(method, path, { ...base, [field]: value(max) });
      expect(saved.status).toBe(200);
      expect(customerSchema.parse(saved.json)[field]).toBe(value(max));
      const before = (await t.call('GET', path)).json;

      const refused = await t.call(method, path, { ...base, [field]: value(max + 1) });
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject(tooLong(max));
      expect((await t.call('GET', path)).json).toEqual(before);
    });
  });
});

describe('job field limits', () => {
  const fields = [
    { field: 'title', max: 120, at: 'x'.repeat(120), past: 'x'.repeat(121), message: 'Use at most 120 characters.' },
    { field: 'description', max: 4000, at: 'x'.repeat(4000), past: 'x'.repeat(4001), message: 'Use at most 4000 characters.' },
    { field: 'service_address', max: 300, at: 'x'.repeat(300), past: 'x'.repeat(301), message: 'Use at most 300 characters.' },
    { field: 'assignee', max: 120, at: 'x'.repeat(120), past: 'x'.repeat(121), message: 'Use at most 120 characters.' },
    { field: 'price_cents', max: 1_000_000_000, at: 1_000_000_000, past: 1_000_000_001, message: 'That price is too large.' },
  ] as const;
  const base = { customer_id: '', title: 'Boiler service' };

  describe.each(fields)('$field (at most $max)', ({ field, at, past, message }) => {
    const refusal = { code: 'VALIDATION_FAILED', issues: [{ path: field, message }] };

    it('keeps exactly the largest value on create, and refuses one more', async () => {
      const created = await t.call('POST', '/api/jobs', { ...base, customer_id: customerId, [field]: at });
      expect(created.status).toBe(200);
      const job = jobSchema.parse(created.json);
      expect(job[field]).toBe(at);
      expect((await t.call('GET', `/api/jobs/${job.id}`)).json).toEqual(job);

      const before = counts();
      const refused = await t.call('POST', '/api/jobs', { ...base, customer_id: customerId, [field]: past });
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject(refusal);
      expect(counts()).toEqual(before);
    });

    it.each(['PUT', 'PATCH'])('keeps exactly the largest value on %s, and refuses one more', async (method) => {
      const path = `/api/jobs/${jobId}`;
      const body = method === 'PUT' ? { ...base, customer_id: customerId, [field]: at } : { [field]: at };
      const saved = await t.call(method, path, body);
      expect(saved.status).toBe(200);
      expect(jobSchema.parse(saved.json)[field]).toBe(at);
      const before = (await t.call('GET', path)).json;

      const refused = await t.call(method, path, { ...body, [field]: past });
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject(refusal);
      expect((await t.call('GET', path)).json).toEqual(before);
    });
  });
});

describe.each(['customers', 'jobs'])('list parameters of /api/%s', (entity) => {
  const list = (filter: unknown) => t.call('GET', `/api/${entity}?filterJson=${encodeURIComponent(JSON.stringify(filter))}`);

  it('answers pages of 1 and of 1000 rows, and refuses 0 and 1001', async () => {
    const one = await list({ limit: 1 });
    expect(one.status).toBe(200);
    expect(one.json).toHaveLength(1);
    const most = await list({ limit: 1000 });
    expect(Number(most.headers.get(totalCountHeader))).toBeGreaterThan(1000);
    expect(most.json).toHaveLength(1000);

    for (const limit of [0, 1001]) {
      const refused = await list({ limit });
      expect(refused.status, `limit ${limit}`).toBe(400);
      expect(refused.json, `limit ${limit}`).toMatchObject({
        code: 'INVALID_PARAMS',
        issues: [{ path: 'limit', message: limit === 0 ? 'limit must be at least 1.' : 'limit can be at most 1000.' }],
      });
    }
  });

  it('searches with 200 characters of text, and refuses 201', async () => {
    const word = entity === 'customers' ? 'quokka' : 'wombat';
    const customer = customerSchema.parse((await t.create({ full_name: `${word} Walker`, email: 'q@example.com', phone: '555 0100' })).json);
    const job = jobSchema.parse((await t.call('POST', '/api/jobs', { customer_id: customer.id, title: `${word} enclosure` })).json);
    const expectedId = entity === 'customers' ? customer.id : job.id;
    // 28 whole words and a prefix: every term must match, so only the row above is found.
    const queryText = `${`${word} `.repeat(28)}${word.slice(0, 4)}`;
    expect(queryText).toHaveLength(200);

    const atLimit = await list({ queryText });
    expect(atLimit.status).toBe(200);
    expect((atLimit.json as { id: string }[]).map((row) => row.id)).toEqual([expectedId]);
    const refused = await list({ queryText: `${queryText}x` });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      code: 'INVALID_PARAMS',
      issues: [{ path: 'queryText', message: 'Search text is limited to 200 characters.' }],
    });
  });
});

describe('request body size (64 KiB)', () => {
  /** A valid body padded with a field the API ignores to exactly `bytes` bytes of UTF-8. */
  function bodyOf(bytes: number, fields: Record<string, unknown>): string {
    const empty = JSON.stringify({ ...fields, padding: '' });
    const body = JSON.stringify({ ...fields, padding: 'x'.repeat(bytes - empty.length) });
    expect(new TextEncoder().encode(body).byteLength).toBe(bytes);
    return body;
  }
  const customer = { full_name: 'Body Size', email: 'body@example.com', phone: '555 0100' };
  const tooLarge = { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 65536 bytes. Send less data in one request.' };
  const writes = () => [
    { method: 'POST', path: '/api/customers', fields: customer },
    { method: 'PUT', path: `/api/customers/${customerId}`, fields: customer },
    { method: 'POST', path: '/api/jobs', fields: { customer_id: customerId, title: 'Body size' } },
    { method: 'PATCH', path: `/api/jobs/${jobId}`, fields: { title: 'Body size' } },
  ];

  it('takes a body of 65 536 bytes and refuses one of 65 537 with 413, changing nothing', async () => {
    for (const { method, path, fields } of writes()) {
      const accepted = await t.call(method, path, bodyOf(65_536, fields));
      expect(accepted.status, `${method} ${path}`).toBe(200);
      const before = { counts: counts(), row: method === 'POST' ? undefined : (await t.call('GET', path)).json };

      const refused = await t.call(method, path, bodyOf(65_537, { ...fields, title: 'Refused', full_name: 'Refused' }));
      expect(refused.status, `${method} ${path}`).toBe(413);
      expect(refused.json).toEqual(tooLarge);
      expect({ counts: counts(), row: method === 'POST' ? undefined : (await t.call('GET', path)).json }).toEqual(before);
    }
  });

  it('draws the same line over HTTP, with a declared length and with a chunked body', async () => {
    const server = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger });
    try {
      const post = (body: string, chunked: boolean) =>
        fetch(`${server.url}/customers`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          // A stream has no declared length, so the server reads it chunk by chunk.
          body: chunked ? new Blob([body]).stream() : body,
          ...(chunked ? { duplex: 'half' } : {}),
        } as RequestInit);
      for (const chunked of [false, true]) {
        expect((await post(bodyOf(65_536, customer), chunked)).status, `chunked: ${chunked}`).toBe(200);
        const refused = await post(bodyOf(65_537, customer), chunked);
        expect(refused.status, `chunked: ${chunked}`).toBe(413);
        expect(await refused.json()).toEqual(tooLarge);
      }
      expect((await fetch(`${server.url}/customers`)).headers.get(totalCountHeader)).toBe('2');
    } finally {
      await server.close();
    }
  });
});
