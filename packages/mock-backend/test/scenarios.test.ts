// Scenarios, fixtures and snapshots (issue 37): what a frontend test needs of a mock, through the
// control routes and mockControl, in Node and over HTTP.
import { totalCountHeader } from '@otto/api-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { mockControl } from '../src/control-client';
import { memoryShelf } from '../src/runtime/scenarios';
import { createMockApi } from '../src/create-mock-api';
import { createMockServer, type MockServer } from '../src/node/create-mock-server';
import type { MockApi, MockApiOptions } from '../src/types';

const listCustomers = (api: MockApi, query?: object) =>
  api.fetch(new Request(`http://localhost/api/customers${query ? `?filterJson=${encodeURIComponent(JSON.stringify(query))}` : ''}`));

let open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.map((x) => x.close()));
  open = [];
});
async function start(options: MockApiOptions = {}) {
  const api = await createMockApi({ seed: { count: 30, fakerSeed: 7 }, ...options });
  open.push(api);
  return { api, control: mockControl({ fetch: api.fetch }) };
}

describe('scenarios', () => {
  it('answers one route as told until reset, and leaves the others alone', async () => {
    const { api, control } = await start();
    await control.use({ method: 'GET', path: '/customers', status: 500, body: { code: 'INTERNAL', message: 'Down for a test.' } });
    const failed = await listCustomers(api);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ code: 'INTERNAL', message: 'Down for a test.' });
    // Another route, and another method on the same path, answer as usual.
    expect((await api.fetch(new Request('http://localhost/api/jobs'))).status).toBe(200);
    expect((await api.fetch(new Request('http://localhost/api/customers/1'))).status).toBe(200);
    await control.reset();
    const back = await listCustomers(api);
    expect(back.status).toBe(200);
    expect(back.headers.get(totalCountHeader)).toBe('30');
  });

  it('matches :params, counts `times`, and puts the newest override first', async () => {
    const { api, control } = await start();
    await control.use({ path: '/customers/:id', status: 404, body: { code: 'NOT_FOUND', message: 'Gone.' }, times: 2 });
    await control.use({ path: '/customers/3', status: 401, body: { code: 'UNAUTHORIZED', message: 'Sign in.' }, times: 1 });
    const one = (id: number) => api.fetch(new Request(`http://localhost/api/customers/${id}`)).then((r) => r.status);
    expect(await one(3)).toBe(401);
    expect(await one(3)).toBe(404);
    expect(await one(4)).toBe(404);
    expect(await one(4)).toBe(200);
  });

  it('drops the connection for a network error and delays the real answer for a slow one', async () => {
    const { api, control } = await start();
    await control.use({ method: 'GET', path: '/jobs', error: 'network' });
    const dropped = await api.fetch(new Request('http://localhost/api/jobs'));
    expect(dropped.type).toBe('error');
    await control.reset();
    await control.use({ path: '*', delayMs: 300 });
    const started = performance.now();
    const slow = await listCustomers(api);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(slow.status).toBe(200);
    expect(slow.headers.get(totalCountHeader)).toBe('30');
  });

  it('puts named scenarios in force: the built-in ones and the app’s own', async () => {
    const { api, control } = await start({ scenarios: { 'no-jobs': [{ method: 'GET', path: '/jobs', body: [], headers: { 'X-Total-Count': '0' } }] } });
    await control.useScenario('empty');
    const empty = await listCustomers(api);
    expect(await empty.json()).toEqual([]);
    expect(empty.headers.get(totalCountHeader)).toBe('0');
    await control.useScenario('no-jobs');
    expect((await listCustomers(api)).headers.get(totalCountHeader)).toBe('30');
    expect(await (await api.fetch(new Request('http://localhost/api/jobs'))).json()).toEqual([]);
    await control.useScenario('server-error');
    expect((await listCustomers(api)).status).toBe(500);
    await expect(control.useScenario('mystery')).rejects.toThrow(/No scenario is called “mystery”. Known: slow, offline, server-error, unauthorized, empty, no-jobs/);
  });

  it('refuses an override it cannot honour in words, and keeps what was in force', async () => {
    const { api, control } = await start();
    await control.use({ path: '/customers', status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: 'Later.' } });
    const refused = async (override: unknown) => {
      const res = await api.fetch(new Request('http://localhost/api/__otto/scenario', { method: 'POST', body: JSON.stringify(override) }));
      return { status: res.status, body: (await res.json()) as { code: string; issues?: { path: string; message: string }[] } };
    };
    expect(await refused({ path: 'customers' })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', issues: [{ path: 'path' }] } });
    expect(await refused({ path: '*', delayMs: 60_000 })).toMatchObject({ status: 400, body: { issues: [{ path: 'delayMs', message: expect.stringMatching(/At most 8000 ms/) }] } });
    expect(await refused({ path: '*', error: 'network', status: 500 })).toMatchObject({ status: 400 });
    expect(await refused({ path: '*', colour: 'red' })).toMatchObject({ status: 400 });
    const notJson = await api.fetch(new Request('http://localhost/api/__otto/scenario', { method: 'PUT', body: '{' }));
    expect(notJson.status).toBe(400);
    expect((await api.fetch(new Request('http://localhost/api/__otto/nothing'))).status).toBe(404);
    expect((await listCustomers(api)).status).toBe(503);
  });
});

describe('what the review found (issue 37)', () => {
  it('answers a scenario name from Object.prototype, and a bad header, with a 400, never a 500', async () => {
    const { api } = await start();
    const put = (body: unknown, method = 'PUT') => api.fetch(new Request('http://localhost/api/__otto/scenario', { method, body: JSON.stringify(body) }));
    for (const name of ['toString', '__proto__', 'constructor']) expect((await put({ name })).status).toBe(404);
    const badHeader = await put({ path: '*', status: 200, body: [], headers: { 'bad header': 'x' } }, 'POST');
    expect(badHeader.status).toBe(400);
    expect((await listCustomers(api)).status).toBe(200);
  });

  it('sets headers alone on the route’s own answer', async () => {
    const { api, control } = await start();
    await control.use({ method: 'GET', path: '/customers', headers: { 'X-Trace': 'from-a-test' } });
    const res = await listCustomers(api);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-trace')).toBe('from-a-test');
    expect(res.headers.get(totalCountHeader)).toBe('30');
  });

  it('drops a kept scenario it cannot read instead of stopping, and keeps writes in order', async () => {
    const shelf = memoryShelf();
    await shelf.set('scenario', new TextEncoder().encode('{"overrides":[{"path":"*","colour":"red"}]}'));
    const { api } = await start({ controlShelf: shelf });
    expect((await listCustomers(api)).status).toBe(200);
    expect(await shelf.get('scenario')).toBeUndefined();
    // A scenario kept by one backend is in force in the next that shares its shelf (a reload).
    const control = mockControl({ fetch: api.fetch });
    await control.use({ path: '/jobs', status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: 'Later.' }, times: 1 });
    await control.useScenario('empty');
    const next = await start({ controlShelf: shelf });
    expect(await (await listCustomers(next.api)).json()).toEqual([]);
  });

  it('refuses snapshot names that are not words, a snapshot of another schema, and an empty fixture body', async () => {
    const { api, control } = await start();
    await expect(control.snapshot('../scenario')).rejects.toThrow(/1 to 64 letters, digits/);
    await control.snapshot('before');
    const shelfless = await api.fetch(new Request('http://localhost/api/__otto/data', { method: 'PUT', body: '' }));
    expect(shelfless.status).toBe(400);
    expect((await listCustomers(api)).headers.get(totalCountHeader)).toBe('30');
    // A snapshot whose header says another schema version (bytes 60–63).
    const shelf = memoryShelf();
    const other = await start({ controlShelf: shelf });
    await mockControl({ fetch: other.api.fetch }).snapshot('old');
    const bytes = (await shelf.get('snapshot/old')) as Uint8Array;
    new DataView(bytes.buffer, bytes.byteOffset + 60, 4).setUint32(0, 3);
    await shelf.set('snapshot/old', bytes);
    await expect(mockControl({ fetch: other.api.fetch }).restoreSnapshot('old')).rejects.toThrow(/\(409\).*schema version 3/);
  });
});

describe('fixtures and snapshots', () => {
  it('replaces every record with a fixture: lists, totals, search and job counts follow', async () => {
    const { api, control } = await start();
    const counts = await control.loadData({
      customers: [
        { id: 1, full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000' },
        { id: 2, full_name: 'Grace Hopper', email: 'grace@example.com', phone: '555-0100' },
      ],
      jobs: [
        { customer_id: 1, title: 'Boiler service', status: 'scheduled', price_cents: 12000 },
        { customer_id: 2, title: 'Roof repair' },
      ],
    });
    expect(counts).toEqual({ customers: 2, jobs: 2 });
    const all = await listCustomers(api);
    expect(all.headers.get(totalCountHeader)).toBe('2');
    expect(((await (await listCustomers(api, { queryText: 'lovel' })).json()) as { full_name: string }[]).map((c) => c.full_name)).toEqual(['Ada Lovelace']);
    const jobCounts = (await (await api.fetch(new Request('http://localhost/api/jobs/counts'))).json()) as Record<string, number>;
    expect(jobCounts).toMatchObject({ scheduled: 1, quote: 1 });
    const job = (await (await api.fetch(new Request('http://localhost/api/jobs?filterJson=%7B%22queryText%22%3A%22roof%22%7D'))).json()) as { customer_id: string; status: string }[];
    expect(job[0]).toMatchObject({ customer_id: '2', status: 'quote' });
  });

  it('refuses a fixture the database would not hold, and changes nothing', async () => {
    const { api, control } = await start();
    await expect(control.loadData({ customers: [{ full_name: 'Ada', email: 'ada@example.com', phone: '1', shoe_size: 5 }] })).rejects.toThrow(
      /“shoe_size”, which is not a column of customers/,
    );
    await expect(control.loadData({ customers: [], jobs: [{ customer_id: 1, title: 'Nope', status: 'lost' }] })).rejects.toThrow(/jobs\[0\] was refused by the database/);
    await expect(control.loadData({ people: [] } as never)).rejects.toThrow(/not “people”/);
    expect((await listCustomers(api)).headers.get(totalCountHeader)).toBe('30');
  });

  it('puts a snapshot back after writes, and tells listeners everything changed', async () => {
    const { api, control } = await start({ seed: { count: 500, fakerSeed: 3 } });
    const events: string[] = [];
    api.onChange((e) => events.push(`${e.entity} ${e.kind}`));
    await control.snapshot();
    await control.loadData({ customers: [] });
    expect((await listCustomers(api)).headers.get(totalCountHeader)).toBe('0');
    const started = performance.now();
    await control.restoreSnapshot();
    const took = performance.now() - started;
    expect((await listCustomers(api)).headers.get(totalCountHeader)).toBe('500');
    expect(events).toEqual(['database reset', 'database reset']);
    // A figure for the note, not an assertion on speed: benchmarks measure speed.
    console.log(`snapshot of 500 customers put back in ${took.toFixed(1)} ms`);
    await expect(control.restoreSnapshot('other')).rejects.toThrow(/No snapshot is called “other”/);
  });
});

describe('over HTTP (otto-mock-server)', () => {
  let server: MockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('takes the same control calls, drops the connection for a network error, and needs the token beyond loopback', async () => {
    server = await createMockServer({ port: 0, seed: { count: 5, fakerSeed: 1 }, token: 'secret-token-for-a-test' });
    const auth = { authorization: 'Bearer secret-token-for-a-test' };
    const control = mockControl({ baseUrl: server.url, headers: auth });
    await control.use({ method: 'GET', path: '/customers', error: 'network' });
    await expect(fetch(`${server.url}/customers`, { headers: auth })).rejects.toThrow(TypeError);
    await control.reset();
    expect((await fetch(`${server.url}/customers`, { headers: auth })).status).toBe(200);
    // Without the token the control routes are refused like every other call.
    await expect(mockControl({ baseUrl: server.url }).useScenario('offline')).rejects.toThrow(/\(401\)/);
  });
});
