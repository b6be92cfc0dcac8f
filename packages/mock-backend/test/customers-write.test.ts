import { customerSchema, limits, totalCountHeader } from '@otto/api-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from './helpers';

let t: TestApi;
afterEach(() => t.api.close());

const ada = { full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '555 0100' };

describe('GET /api/customers/{id}', () => {
  it('returns the customer with a string id', async () => {
    t = await startApi();
    const created = customerSchema.parse((await t.create(ada)).json);
    const res = await t.call('GET', `/api/customers/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(created);
  });

  it('answers 404 with a JSON error for a missing or malformed id', async () => {
    t = await startApi();
    for (const id of ['999', 'abc', '0', '-1', '1.5', '99999999999999999999']) {
      const res = await t.call('GET', `/api/customers/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.json, id).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('was not found') });
    }
  });
});

describe('POST /api/customers', () => {
  it('creates a customer with created_dt and modified_dt set to now', async () => {
    t = await startApi();
    const res = await t.create(ada);
    expect(res.status).toBe(200);
    const customer = customerSchema.parse(res.json);
    expect(customer).toMatchObject({ ...ada, created_dt: t.clock.now(), modified_dt: t.clock.now() });
    expect(customer.id).toMatch(/^\d+$/);
    expect((await t.list()).json).toEqual([customer]);
    expect((await t.list({ queryText: 'lovel' })).json).toEqual([customer]);
  });

  it('trims the fields and ignores fields it does not take', async () => {
    t = await startApi();
    const res = await t.create({ ...ada, full_name: '  Ada  ', id: '77', created_dt: 1 } as typeof ada);
    expect(res.json).toMatchObject({ full_name: 'Ada', created_dt: t.clock.now() });
  });

  it('answers 200 with null when the body fails the shape check, and creates nothing', async () => {
    t = await startApi();
    const bodies = [{}, { ...ada, phone: 5 }, { ...ada, id: 7 }, { full_name: 'A', email: 'a@b.co' }, [], null, 'text', 42];
    for (const body of bodies) {
      const res = await t.call('POST', '/api/customers', JSON.stringify(body));
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.text, JSON.stringify(body)).toBe('null');
    }
    expect((await t.list()).headers.get(totalCountHeader)).toBe('0');
  });

  it('answers 400 with the field issues when a field breaks a rule', async () => {
    t = await startApi();
    const res = await t.create({ full_name: ' ', email: 'not-an-email', phone: 'x'.repeat(41) });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'VALIDATION_FAILED' });
    const paths = new Set((res.json as { issues: { path: string }[] }).issues.map((i) => i.path));
    expect([...paths].sort()).toEqual(['email', 'full_name', 'phone']);
  });

  it('answers 400 for a body that is not JSON, and 413 for one that is too large', async () => {
    t = await startApi();
    expect((await t.call('POST', '/api/customers', '{"full_name":')).json).toMatchObject({ code: 'INVALID_JSON' });
    expect((await t.call('POST', '/api/customers', '{"full_name":')).status).toBe(400);
    expect((await t.call('POST', '/api/customers')).status).toBe(400);
    const invalidUtf8 = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]);
    expect((await t.call('POST', '/api/customers', undefined, { body: invalidUtf8 })).status).toBe(400);
    const huge = JSON.stringify({ ...ada, full_name: 'x'.repeat(limits.maxBodyBytes) });
    const res = await t.call('POST', '/api/customers', huge);
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect((await t.list()).headers.get(totalCountHeader)).toBe('0');
  });

  it('lands all of 50 concurrent creates', async () => {
    t = await startApi();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.call('POST', '/api/customers', { full_name: `Person ${i}`, email: `p${i}@example.com`, phone: `555 ${i}` }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => customerSchema.parse(r.json).id)).size).toBe(50);
    expect((await t.list()).headers.get(totalCountHeader)).toBe('50');
  });
});

describe('PUT and PATCH /api/customers/{id}', () => {
  for (const method of ['PUT', 'PATCH']) {
    it(`${method} takes only full_name, email and phone and sets modified_dt to now`, async () => {
      t = await startApi();
      const created = customerSchema.parse((await t.create(ada)).json);
      t.clock.advance(5000);
      const res = await t.call(method, `/api/customers/${created.id}`, {
        id: '999',
        full_name: 'Augusta King',
        email: 'augusta@example.com',
        phone: '555 0199',
        created_dt: 1,
        modified_dt: 2,
      });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        id: created.id,
        full_name: 'Augusta King',
        email: 'augusta@example.com',
        phone: '555 0199',
        created_dt: created.created_dt,
        modified_dt: t.clock.now(),
        archived_dt: null,
      });
      expect((await t.list({ queryText: 'augusta' })).json).toEqual([res.json]);
      expect((await t.list({ queryText: 'lovelace' })).json).toEqual([]);
    });
  }

  it('answers 200 with null for a body that fails the shape check and changes nothing', async () => {
    t = await startApi();
    const created = customerSchema.parse((await t.create(ada)).json);
    const res = await t.call('PUT', `/api/customers/${created.id}`, { full_name: 'Only a name' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('null');
    expect((await t.call('GET', `/api/customers/${created.id}`)).json).toEqual(created);
  });

  it('answers 404 for a missing customer and 400 for a broken field', async () => {
    t = await startApi();
    const created = customerSchema.parse((await t.create(ada)).json);
    expect((await t.call('PUT', '/api/customers/404', ada)).status).toBe(404);
    const bad = await t.call('PATCH', `/api/customers/${created.id}`, { ...ada, email: 'nope' });
    expect(bad.status).toBe(400);
    expect((await t.call('GET', `/api/customers/${created.id}`)).json).toEqual(created);
  });

  it('keeps one search row per customer, keyed by its id', async () => {
    t = await startApi({ seed: { count: 20, fakerSeed: 4 } });
    const [first] = (await t.list({ limit: 1 })).json as { id: string }[];
    await t.call('PUT', `/api/customers/${first!.id}`, ada);
    const store = t.api.store;
    expect(store.get('SELECT count(*) AS n FROM customers_fts')).toEqual({ n: 20 });
    expect(store.get('SELECT count(*) AS n FROM customers_fts WHERE rowid != customer_id_fk')).toEqual({ n: 0 });
    store.run("INSERT INTO customers_fts (customers_fts) VALUES ('integrity-check')");
    const trigger = store.get<{ sql: string }>(
      "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'customers_fts_after_update'",
    );
    expect(trigger?.sql).toMatch(/WHERE rowid = old\.id/);
    // FTS5 reports a rowid lookup as index constraint "0:=" (a full scan has no constraint).
    const plan = (where: string) =>
      store.all<{ detail: string }>(`EXPLAIN QUERY PLAN UPDATE customers_fts SET customer_text = 'x' WHERE ${where}`);
    expect(plan('rowid = 1').map((p) => p.detail).join(' ')).toMatch(/INDEX 0:=/);
    expect(plan('customer_id_fk = 1').map((p) => p.detail).join(' ')).not.toMatch(/INDEX 0:=/);
  });
});

describe('unknown paths and methods', () => {
  it('answers 404 with the text Not found', async () => {
    t = await startApi();
    const cases: [string, string][] = [
      ['GET', '/customers'],
      ['GET', '/'],
      ['GET', '/apix/customers'],
      ['GET', '/api'],
      ['GET', '/api/'],
      ['GET', '/api/estimates'],
      ['GET', '/api/customers/1/jobs'],
      ['DELETE', '/api/customers'],
      ['POST', '/api/customers/1'],
      ['PUT', '/api/customers'],
      ['OPTIONS', '/api/customers'],
    ];
    for (const [method, path] of cases) {
      const res = await t.call(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.text, `${method} ${path}`).toBe('Not found');
    }
  });
});
