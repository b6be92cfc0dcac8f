// Devices that work offline on their own copy and agree through a team server (issue 40, decision
// 0163): every device a real API on SQLite, the server a real API too; only the network between
// them is the test's (it can be cut, or lose an answer).
import { afterEach, describe, expect, it } from 'vitest';
import { requestIdHeader, type Customer, type Job } from '@otto/api-contract';
import { createMockApi } from '../src/create-mock-api';
import { createLogger } from '../src/logger';
import { createDeviceSync, makeDevice, type SyncServer } from '../src/sync/device-sync';
import { latestSchemaVersion } from '../src/database/migrations';
import type { MockApi, MockApiOptions } from '../src/types';

const quiet = createLogger({ sink: { debug() {}, info() {}, warn() {}, error() {} } });
const opened: MockApi[] = [];
afterEach(async () => {
  for (const api of opened.splice(0)) await api.close();
});

async function api(options: MockApiOptions = {}): Promise<MockApi> {
  const made = await createMockApi({ seed: false, logger: quiet, ...options });
  opened.push(made);
  return made;
}

/** The network between a device and the server: it can be down, or lose the next answer. */
function network(server: MockApi) {
  const net = { up: true, loseNextAnswer: false, pushes: 0 };
  const send: SyncServer = async (path, init) => {
    if (!net.up) throw new TypeError('Failed to fetch');
    if (path === '/sync/push') net.pushes++;
    const res = await server.fetch(new Request(`http://server.example/api${path}`, init));
    if (net.loseNextAnswer) {
      net.loseNextAnswer = false;
      throw new TypeError('The connection was reset');
    }
    return res;
  };
  return { net, send };
}

let sent = 0;
/** A request as the app's relay sends it: with a request id. */
async function call(target: MockApi, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await target.fetch(
    new Request(`http://localhost/api${path}`, {
      method,
      headers: { [requestIdHeader]: `t-${++sent}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
  const text = await res.text();
  return { status: res.status, etag: res.headers.get('etag'), body: text ? (JSON.parse(text) as unknown) : undefined, text };
}

/** Every customer and job a backend has (archived ones too), as the API reads them one by one. */
async function everything(target: MockApi) {
  const all = async <T extends { id: string }>(kind: 'customers' | 'jobs') => {
    const rows: T[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = (await call(target, 'GET', `/${kind}?filterJson=${encodeURIComponent(JSON.stringify({ limit: 500, offset }))}`)).body as T[];
      rows.push(...page);
      if (page.length < 500) break;
    }
    const archived = (await call(target, 'GET', `/${kind}?filterJson=${encodeURIComponent(JSON.stringify({ archived: true, limit: 500 }))}`)).body;
    if (Array.isArray(archived)) rows.push(...(archived as T[]));
    return new Map(rows.map((r) => [r.id, r]));
  };
  return { customers: await all<Customer>('customers'), jobs: await all<Job>('jobs') };
}

async function twoDevices(seed = 20) {
  const server = await api({ seed: { count: seed, fakerSeed: 11 } });
  const devices = await Promise.all(
    [1, 2].map(async (no) => {
      const copy = await api();
      await makeDevice(copy.store, no);
      const link = network(server);
      const events: string[] = [];
      const sync = createDeviceSync({ store: copy.store, server: link.send, publish: (e) => events.push(`${e.entity} ${e.kind}`) });
      return { copy, link, sync, events };
    }),
  );
  for (const d of devices) {
    const r = await d.sync.sync();
    expect(r, r.error).toMatchObject({ offline: false });
  }
  return { server, a: devices[0]!, b: devices[1]!, devices };
}

describe('devices syncing through a team server', () => {
  it('a first sync gives a device the server’s data; its creates take ids of its own range', async () => {
    const { server, a } = await twoDevices();
    expect(await everything(a.copy)).toEqual(await everything(server));
    expect(a.events).toContain('database reset');
    const made = (await call(a.copy, 'POST', '/customers', { full_name: 'Ada Device', email: 'ada@device.example', phone: '555 0100' })).body as Customer;
    expect(Number(made.id)).toBeGreaterThanOrEqual(2 ** 52);
    expect(await a.sync.state()).toMatchObject({ waiting: 1, deviceNo: 1 });
    expect(await a.sync.sync()).toMatchObject({ pushed: 1, refused: 0, offline: false });
    // The server made it with the same id; the device's copy holds the server's version.
    const there = (await call(server, 'GET', `/customers/${made.id}`)).body as Customer;
    expect(there).toMatchObject({ id: made.id, full_name: 'Ada Device' });
    expect((await call(a.copy, 'GET', `/customers/${made.id}`)).body).toEqual(there);
    expect(await a.sync.state()).toMatchObject({ waiting: 0, notices: [] });
  });

  it('device A offline creates a customer and a job for them and moves a job while B edits that job’s customer: after A is back all three agree', async () => {
    const { server, a, b } = await twoDevices();
    const jobs = [...(await everything(a.copy)).jobs.values()];
    const job = jobs.find((j) => j.status === 'quote' && j.archived_dt === null)!;
    const customer = (await call(b.copy, 'GET', `/customers/${job.customer_id}`)) as { body: Customer; etag: string };
    a.link.net.up = false;
    const made = (await call(a.copy, 'POST', '/customers', { full_name: 'Offline Ola', email: 'ola@offline.example', phone: '555 0111' })).body as Customer;
    const madeJob = await call(a.copy, 'POST', '/jobs', { customer_id: made.id, title: 'Made in the van' });
    expect(madeJob.status).toBe(200);
    expect((await call(a.copy, 'POST', `/jobs/${job.id}/move`, { status: 'cancelled' })).status).toBe(200);
    expect(await a.sync.sync()).toMatchObject({ offline: true, pushed: 0 });
    expect(await a.sync.state()).toMatchObject({ waiting: 3 });
    // B, online, changes the job's customer's phone.
    const edited = await call(b.copy, 'PUT', `/customers/${customer.body.id}`, { ...pick(customer.body), phone: '555 0999' }, { 'if-match': customer.etag });
    expect(edited.status).toBe(200);
    expect(await b.sync.sync()).toMatchObject({ pushed: 1, offline: false });
    a.link.net.up = true;
    expect(await a.sync.sync()).toMatchObject({ pushed: 3, refused: 0, offline: false });
    await b.sync.sync();
    const truth = await everything(server);
    expect(truth.customers.get(made.id)).toMatchObject({ full_name: 'Offline Ola' });
    expect(truth.customers.get(customer.body.id)).toMatchObject({ phone: '555 0999' });
    expect(truth.jobs.get(job.id)).toMatchObject({ status: 'cancelled' });
    expect(await everything(a.copy)).toEqual(truth);
    expect(await everything(b.copy)).toEqual(truth);
  });

  it('the same job moved on both devices offline: one move is saved, the other a notice, and that device shows the saved move', async () => {
    const { server, a, b } = await twoDevices();
    const job = [...(await everything(a.copy)).jobs.values()].find((j) => j.status === 'quote' && j.archived_dt === null)!;
    a.link.net.up = false;
    b.link.net.up = false;
    expect((await call(a.copy, 'POST', `/jobs/${job.id}/move`, { status: 'cancelled' })).status).toBe(200);
    expect((await call(b.copy, 'POST', `/jobs/${job.id}/move`, { status: 'scheduled', scheduled_start_dt: Date.UTC(2027, 0, 4, 9) })).status).toBe(200);
    a.link.net.up = true;
    b.link.net.up = true;
    expect(await a.sync.sync()).toMatchObject({ pushed: 1, refused: 0 });
    expect(await b.sync.sync()).toMatchObject({ pushed: 0, refused: 1 });
    const notices = (await b.sync.state()).notices;
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ method: 'POST', path: `/jobs/${job.id}/move`, answer: { status: 409 } });
    expect(((await call(b.copy, 'GET', `/jobs/${job.id}`)).body as Job).status).toBe('cancelled');
    expect(((await call(server, 'GET', `/jobs/${job.id}`)).body as Job).status).toBe('cancelled');
    await b.sync.dismiss(notices[0]!.requestId);
    expect((await b.sync.state()).notices).toEqual([]);
    await a.sync.sync();
    expect(await everything(a.copy)).toEqual(await everything(server));
    expect(await everything(b.copy)).toEqual(await everything(server));
  });

  it('edits a record twice offline over its own versions: both are saved, neither is taken for another device’s edit', async () => {
    const { server, a } = await twoDevices();
    const customer = [...(await everything(a.copy)).customers.values()][0]!;
    a.link.net.up = false;
    let etag = (await call(a.copy, 'GET', `/customers/${customer.id}`)).etag!;
    for (const phone of ['555 0001', '555 0002', '555 0003']) {
      const saved = await call(a.copy, 'PUT', `/customers/${customer.id}`, { ...pick(customer), phone }, { 'if-match': etag });
      expect(saved.status).toBe(200);
      etag = saved.etag!;
    }
    a.link.net.up = true;
    expect(await a.sync.sync()).toMatchObject({ pushed: 3, refused: 0 });
    // Edited again before the pull took the server's version in: still over its own version.
    const again = await call(a.copy, 'PUT', `/customers/${customer.id}`, { ...pick(customer), phone: '555 0004' }, { 'if-match': (await call(a.copy, 'GET', `/customers/${customer.id}`)).etag! });
    expect(again.status).toBe(200);
    expect(await a.sync.sync()).toMatchObject({ pushed: 1, refused: 0 });
    expect(((await call(server, 'GET', `/customers/${customer.id}`)).body as Customer).phone).toBe('555 0004');
    expect(await everything(a.copy)).toEqual(await everything(server));
  });

  it('a push whose answer is lost is sent again and runs once; an edit made elsewhere meanwhile is a notice, not lost silently', async () => {
    const { server, a, b } = await twoDevices();
    a.link.net.up = false;
    for (let i = 0; i < 5; i++) await call(a.copy, 'POST', '/customers', { full_name: `Lost ${i}`, email: `lost${i}@example.com`, phone: '555 0200' });
    a.link.net.up = true;
    a.link.net.loseNextAnswer = true;
    expect(await a.sync.sync()).toMatchObject({ offline: true });
    expect(await a.sync.sync()).toMatchObject({ pushed: 5, offline: false });
    const names = [...(await everything(server)).customers.values()].map((c) => c.full_name).filter((n) => n.startsWith('Lost '));
    expect(names.sort()).toEqual(['Lost 0', 'Lost 1', 'Lost 2', 'Lost 3', 'Lost 4']);

    // Both edit the same customer's name offline: the second to push gets a notice (412) and its copy the first one's name.
    await b.sync.sync();
    const target = [...(await everything(a.copy)).customers.values()][0]!;
    const etagA = (await call(a.copy, 'GET', `/customers/${target.id}`)).etag!;
    const etagB = (await call(b.copy, 'GET', `/customers/${target.id}`)).etag!;
    a.link.net.up = false;
    b.link.net.up = false;
    await call(a.copy, 'PUT', `/customers/${target.id}`, { ...pick(target), full_name: 'Name From A' }, { 'if-match': etagA });
    await call(b.copy, 'PUT', `/customers/${target.id}`, { ...pick(target), full_name: 'Name From B' }, { 'if-match': etagB });
    a.link.net.up = true;
    b.link.net.up = true;
    expect(await a.sync.sync()).toMatchObject({ pushed: 1, refused: 0 });
    expect(await b.sync.sync()).toMatchObject({ pushed: 0, refused: 1 });
    expect((await b.sync.state()).notices[0]).toMatchObject({ answer: { status: 412 }, body: { full_name: 'Name From B' } });
    expect(((await call(b.copy, 'GET', `/customers/${target.id}`)).body as Customer).full_name).toBe('Name From A');
  });

  it('edits of different fields of one customer on two devices offline are both kept (merged); the same field on both is a notice', async () => {
    const { server, a, b } = await twoDevices();
    const target = [...(await everything(a.copy)).customers.values()][0]!;
    const etagA = (await call(a.copy, 'GET', `/customers/${target.id}`)).etag!;
    const etagB = (await call(b.copy, 'GET', `/customers/${target.id}`)).etag!;
    a.link.net.up = false;
    b.link.net.up = false;
    await call(a.copy, 'PUT', `/customers/${target.id}`, { ...pick(target), full_name: 'Renamed On A' }, { 'if-match': etagA });
    await call(b.copy, 'PUT', `/customers/${target.id}`, { ...pick(target), phone: '555 0777' }, { 'if-match': etagB });
    a.link.net.up = true;
    b.link.net.up = true;
    expect(await a.sync.sync()).toMatchObject({ pushed: 1, refused: 0, merged: 0 });
    expect(await b.sync.sync()).toMatchObject({ pushed: 1, refused: 0, merged: 1 });
    await a.sync.sync();
    const there = (await call(server, 'GET', `/customers/${target.id}`)).body as Customer;
    expect(there).toMatchObject({ full_name: 'Renamed On A', phone: '555 0777', email: target.email });
    expect((await call(a.copy, 'GET', `/customers/${target.id}`)).body).toEqual(there);
    expect((await call(b.copy, 'GET', `/customers/${target.id}`)).body).toEqual(there);
    expect((await b.sync.state()).notices).toEqual([]);
  });

  it('a job started offline while the owner changed its price elsewhere is saved with both; a job edited on two devices keeps both fields', async () => {
    const { server, a, b } = await twoDevices();
    const jobs = [...(await everything(server)).jobs.values()].filter((j) => j.status === 'scheduled' && !j.archived_dt);
    const [started, edited] = jobs as [Job, Job];
    expect(edited).toBeDefined();
    a.link.net.up = false;
    // The technician, offline: starts one job, and rewrites the other's description.
    expect((await call(a.copy, 'POST', `/jobs/${started.id}/move`, { status: 'in_progress' }, { 'if-match': `"${started.modified_dt}"` })).status).toBe(200);
    expect((await call(a.copy, 'PATCH', `/jobs/${edited.id}`, { description: 'Replaced the valve; the tap drips no more.' }, { 'if-match': `"${edited.modified_dt}"` })).status).toBe(200);
    // The owner: changes both jobs' prices.
    for (const job of [started, edited]) expect((await call(b.copy, 'PATCH', `/jobs/${job.id}`, { price_cents: 12_345 }, { 'if-match': `"${job.modified_dt}"` })).status).toBe(200);
    expect(await b.sync.sync()).toMatchObject({ pushed: 2, offline: false });
    a.link.net.up = true;
    expect(await a.sync.sync()).toMatchObject({ pushed: 2, merged: 2, refused: 0, offline: false });
    const onServer = (await everything(server)).jobs;
    expect(onServer.get(started.id)).toMatchObject({ status: 'in_progress', price_cents: 12_345 });
    expect(onServer.get(edited.id)).toMatchObject({ description: 'Replaced the valve; the tap drips no more.', price_cents: 12_345 });
    await b.sync.sync();
    expect(await everything(a.copy)).toEqual(await everything(server));
    expect(await everything(b.copy)).toEqual(await everything(server));
  });

  it('notes changed on both devices: one is kept, the other a notice, and that device shows the notes kept', async () => {
    const { server, a, b } = await twoDevices();
    const target = [...(await everything(a.copy)).customers.values()][0]!;
    const path = `/customers/${target.id}/details`;
    const etagA = (await call(a.copy, 'GET', path)).etag!;
    const etagB = (await call(b.copy, 'GET', path)).etag!;
    a.link.net.up = false;
    b.link.net.up = false;
    expect((await call(a.copy, 'PUT', path, { notes: 'Gate code 1111', addresses: [] }, { 'if-match': etagA })).status).toBe(200);
    expect((await call(b.copy, 'PUT', path, { notes: 'Dog in the yard', addresses: [] }, { 'if-match': etagB })).status).toBe(200);
    a.link.net.up = true;
    b.link.net.up = true;
    expect(await a.sync.sync()).toMatchObject({ pushed: 1, refused: 0 });
    expect(await b.sync.sync()).toMatchObject({ pushed: 0, refused: 1 });
    expect((await b.sync.state()).notices[0]).toMatchObject({ path, answer: { status: 412 } });
    expect((await call(b.copy, 'GET', path)).body).toEqual((await call(server, 'GET', path)).body);
    expect((await call(b.copy, 'GET', path)).body).toMatchObject({ notes: 'Gate code 1111' });
  });

  it('takes the server’s changes in while its own writes wait, except the records they touched; they merge once pushed', async () => {
    const { server, a, b } = await twoDevices();
    const x = [...(await everything(server)).customers.values()][0]!;
    // A, offline: renames X and makes a customer. B: changes X's phone and makes a customer.
    a.link.net.up = false;
    expect((await call(a.copy, 'PUT', `/customers/${x.id}`, { ...pick(x), full_name: 'Renamed on A' }, { 'if-match': `"${x.modified_dt}"` })).status).toBe(200);
    await call(a.copy, 'POST', '/customers', { full_name: 'From A', email: 'from@a.example', phone: '555 0301' });
    expect((await call(b.copy, 'PUT', `/customers/${x.id}`, { ...pick(x), phone: '555 0999' }, { 'if-match': `"${x.modified_dt}"` })).status).toBe(200);
    await call(b.copy, 'POST', '/customers', { full_name: 'From B', email: 'from@b.example', phone: '555 0300' });
    expect(await b.sync.sync()).toMatchObject({ pushed: 2, offline: false });
    // A is back, but the server fails its pushes: B's new customer comes in all the same, while X
    // stays as A made it (A's rename waits; the server's X comes with its answer).
    a.link.net.up = true;
    const pushless: SyncServer = async (path, init) => (path === '/sync/push' ? new Response('down', { status: 503 }) : a.link.send(path, init));
    expect(await createDeviceSync({ store: a.copy.store, server: pushless }).sync()).toMatchObject({ offline: true, held: false });
    const meanwhile = await everything(a.copy);
    expect([...meanwhile.customers.values()].map((c) => c.full_name)).toEqual(expect.arrayContaining(['From A', 'From B']));
    expect(meanwhile.customers.get(x.id)).toMatchObject({ full_name: 'Renamed on A', phone: x.phone });
    // Pushed: the rename merges with B's phone (different fields), and all three agree.
    expect(await a.sync.sync()).toMatchObject({ pushed: 2, merged: 1, refused: 0, offline: false });
    expect(await b.sync.sync()).toMatchObject({ offline: false });
    expect((await everything(a.copy)).customers.get(x.id)).toMatchObject({ full_name: 'Renamed on A', phone: '555 0999' });
    expect(await everything(a.copy)).toEqual(await everything(server));
    expect(await everything(b.copy)).toEqual(await everything(server));
  });

  it('sets a write the server fails every time aside after three tries, as a notice with a retry; the writes behind it and the pulls go on', async () => {
    const { server, a, b } = await twoDevices();
    const x = [...(await everything(server)).customers.values()][0]!;
    a.link.net.up = false;
    expect((await call(a.copy, 'PUT', `/customers/${x.id}`, { ...pick(x), full_name: 'Poison edit' }, { 'if-match': `"${x.modified_dt}"` })).status).toBe(200);
    for (const name of ['Behind one', 'Behind two']) await call(a.copy, 'POST', '/customers', { full_name: name, email: `${name.replace(' ', '.')}@example.com`, phone: '555 0310' });
    a.link.net.up = true;
    // The server fails that one write every time (its answer in the push is a 500); the rest run.
    let poisoned = true;
    const failing: SyncServer = async (path, init) => {
      if (path !== '/sync/push' || !poisoned) return a.link.send(path, init);
      const { writes } = JSON.parse(String(init?.body)) as { writes: { request_id: string; path: string }[] };
      const bad = writes.filter((w) => w.path === `/customers/${x.id}`);
      const rest = writes.filter((w) => !bad.includes(w));
      const ran = rest.length ? ((await (await a.link.send(path, { ...init, body: JSON.stringify({ writes: rest }) })).json()) as { answers: { request_id: string }[] }).answers : [];
      const answers = writes.map((w) => ran.find((r) => r.request_id === w.request_id) ?? { request_id: w.request_id, status: 500, body: { code: 'INTERNAL', message: 'Something broke.' }, replayed: false });
      return Response.json({ answers });
    };
    await call(b.copy, 'POST', '/customers', { full_name: 'From B', email: 'from@b.example', phone: '555 0300' });
    await b.sync.sync();
    const device = createDeviceSync({ store: a.copy.store, server: failing });
    expect(await device.sync()).toMatchObject({ pushed: 2, refused: 0, offline: true });
    // The writes behind it ran, and B's customer came in while it waited.
    expect([...(await everything(a.copy)).customers.values()].map((c) => c.full_name)).toEqual(expect.arrayContaining(['Behind one', 'Behind two', 'From B']));
    expect(await device.sync()).toMatchObject({ refused: 0, offline: true });
    expect(await device.sync()).toMatchObject({ refused: 1, offline: false });
    const state = await device.state();
    expect(state.waiting).toBe(0);
    expect(state.notices).toHaveLength(1);
    expect(state.notices[0]).toMatchObject({ retry: true, path: `/customers/${x.id}`, answer: { status: 500, body: { code: 'SERVER_KEEPS_FAILING' } } });
    expect((state.notices[0]!.answer.body as { message: string }).message).toMatch(/failed to save this change 3 times in a row/);
    // Nothing waits any more: the device equals the server (X as the server has it).
    expect(await everything(a.copy)).toEqual(await everything(server));
    // Fixed on the server, Try again sends it: it is saved, and the notice is gone.
    poisoned = false;
    expect(await device.retry(state.notices[0]!.requestId)).toBe(true);
    expect(await device.sync()).toMatchObject({ pushed: 1, refused: 0, offline: false });
    expect((await device.state()).notices).toEqual([]);
    expect((await everything(server)).customers.get(x.id)).toMatchObject({ full_name: 'Poison edit' });
    expect(await everything(a.copy)).toEqual(await everything(server));
    // A notice refused by a rule is not one to retry.
    expect(await device.retry('no-such-request')).toBe(false);
  });

  it('finds a write that makes the server fail its whole push, and sets it aside while the server answers other requests', async () => {
    const { server, a } = await twoDevices();
    const x = [...(await everything(server)).customers.values()][0]!;
    a.link.net.up = false;
    await call(a.copy, 'POST', '/customers', { full_name: 'Before it', email: 'before@example.com', phone: '555 0311' });
    expect((await call(a.copy, 'PUT', `/customers/${x.id}`, { ...pick(x), full_name: 'Crashes the push' }, { 'if-match': `"${x.modified_dt}"` })).status).toBe(200);
    await call(a.copy, 'POST', '/customers', { full_name: 'After it', email: 'after@example.com', phone: '555 0312' });
    a.link.net.up = true;
    // Any push that carries that write is answered 500 as a whole (a server that crashes on it).
    let pushes = 0;
    const crashing: SyncServer = async (path, init) => {
      if (path === '/sync/push') pushes++;
      if (path === '/sync/push' && String(init?.body).includes(`"/customers/${x.id}"`)) return new Response('Internal Server Error', { status: 500 });
      return a.link.send(path, init);
    };
    const device = createDeviceSync({ store: a.copy.store, server: crashing });
    const reports = [];
    for (let i = 0; i < 6 && ((await device.state()).waiting > 0 || reports.length === 0); i++) reports.push(await device.sync());
    const state = await device.state();
    expect(state.waiting, JSON.stringify(reports)).toBe(0);
    expect(state.notices).toMatchObject([{ retry: true, path: `/customers/${x.id}` }]);
    const names = [...(await everything(server)).customers.values()].map((c) => c.full_name);
    expect(names).toEqual(expect.arrayContaining(['Before it', 'After it']));
    expect(names).not.toContain('Crashes the push');
    expect(await everything(a.copy)).toEqual(await everything(server));
    // Found and set aside, the next writes go in one push again, not one at a time.
    for (const name of ['Later one', 'Later two', 'Later three']) await call(a.copy, 'POST', '/customers', { full_name: name, email: `${name.replace(' ', '.')}@example.com`, phone: '555 0315' });
    const before = pushes;
    expect(await device.sync()).toMatchObject({ pushed: 3, offline: false });
    expect(pushes - before).toBe(1);
  });

  it('never sets a write aside while the server is down: a server that answers nothing is offline', async () => {
    const { a } = await twoDevices();
    await call(a.copy, 'POST', '/customers', { full_name: 'Waits', email: 'waits@example.com', phone: '555 0313' });
    const down: SyncServer = async () => new Response('Service Unavailable', { status: 503 });
    const device = createDeviceSync({ store: a.copy.store, server: down });
    for (let i = 0; i < 8; i++) expect(await device.sync()).toMatchObject({ refused: 0, offline: true });
    expect(await device.state()).toMatchObject({ waiting: 1, notices: [] });
    expect(await a.sync.sync()).toMatchObject({ pushed: 1, offline: false });
  });

  it('goes on with a first sync cut short from its last page, after a write made meanwhile; screens hear of the new copy once it is whole', async () => {
    // More customers than one page of a first sync (5 000) carries.
    const server = await api({ seed: { count: 5_500, jobs: false, fakerSeed: 5 } });
    const copy = await api();
    await makeDevice(copy.store, 3);
    const link = network(server);
    const asked: string[] = [];
    let pullsBeforeCut = 1;
    const cutting: SyncServer = async (path, init) => {
      if (path.startsWith('/sync/pull')) {
        asked.push(decodeURIComponent(path));
        if (pullsBeforeCut-- <= 0) throw new TypeError('Failed to fetch');
      }
      return link.send(path, init);
    };
    const events: string[] = [];
    const device = createDeviceSync({ store: copy.store, server: cutting, publish: (e) => events.push(`${e.entity} ${e.kind}`) });
    const first = await device.sync();
    expect(first).toMatchObject({ offline: true, pulled: 5_000 });
    expect((await device.state()).position).toBeUndefined();
    expect(events).toEqual([]);
    // A customer made on the device meanwhile: it waits, then goes up, and the download goes on.
    expect((await call(copy, 'POST', '/customers', { full_name: 'Made meanwhile', email: 'meanwhile@example.com', phone: '555 0314' })).status).toBe(200);
    pullsBeforeCut = Infinity;
    asked.length = 0;
    const second = await device.sync();
    expect(second).toMatchObject({ offline: false, pushed: 1 });
    // It asked for the next page, not for everything again.
    expect(asked[0]).toMatch(/"page":"s\./);
    expect((await device.state()).position).toBeDefined();
    expect(events).toEqual(['database reset']);
    await device.sync();
    // The two syncs took in each record once: as many as a new device's first sync takes.
    const fresh = await api();
    await makeDevice(fresh.store, 4);
    const whole = await createDeviceSync({ store: fresh.store, server: network(server).send }).sync();
    expect(first.pulled + second.pulled).toBe(whole.pulled);
    const onServer = await everything(server);
    expect(onServer.customers.size).toBe(5_501);
    expect(await everything(copy)).toEqual(onServer);
  });

  it('a device whose answer was lost and that stayed offline three days gets no false notice: the server forgot the answer, the effect says it ran', async () => {
    let clock = Date.UTC(2026, 11, 1, 9);
    const now = () => clock;
    const server = await api({ seed: { count: 5, fakerSeed: 3 }, now });
    const copy = await api({ now });
    await makeDevice(copy.store, 5);
    const link = network(server);
    const device = createDeviceSync({ store: copy.store, server: link.send });
    expect(await device.sync()).toMatchObject({ offline: false });
    const onServer = await everything(server);
    const x = [...onServer.customers.values()][0]!;
    const job = [...onServer.jobs.values()].find((j) => j.status === 'scheduled' && !j.archived_dt)!;
    // Offline: a new customer, an edit and a job started; then one push whose answer is lost.
    link.net.up = false;
    clock += 60_000;
    const made = (await call(copy, 'POST', '/customers', { full_name: 'Made before the gap', email: 'gap@example.com', phone: '555 0320' })).body as Customer;
    expect((await call(copy, 'PUT', `/customers/${x.id}`, { ...pick(x), phone: '555 0321' }, { 'if-match': `"${x.modified_dt}"` })).status).toBe(200);
    expect((await call(copy, 'POST', `/jobs/${job.id}/move`, { status: 'in_progress' }, { 'if-match': `"${job.modified_dt}"` })).status).toBe(200);
    link.net.up = true;
    link.net.loseNextAnswer = true;
    expect(await device.sync()).toMatchObject({ offline: true });
    expect((await device.state()).waiting).toBe(3);
    // Three days without a connection: the server's request log forgets answers after one.
    clock += 3 * 24 * 60 * 60 * 1000;
    const back = await device.sync();
    expect(back).toMatchObject({ pushed: 3, refused: 0, offline: false });
    expect(await device.state()).toMatchObject({ waiting: 0, notices: [] });
    const after = await everything(server);
    expect([...after.customers.values()].filter((c) => c.full_name === 'Made before the gap')).toHaveLength(1);
    expect(after.customers.get(made.id)).toBeDefined();
    expect(after.customers.get(x.id)).toMatchObject({ phone: '555 0321' });
    expect(after.jobs.get(job.id)).toMatchObject({ status: 'in_progress' });
    expect(await everything(copy)).toEqual(after);
  });

  it('a device on an older Otto than the server’s data pushes nothing and says to update; it still takes the server’s changes, and pushes once updated', async () => {
    const { server, a, b } = await twoDevices();
    const x = [...(await everything(server)).customers.values()][0]!;
    expect((await call(a.copy, 'PUT', `/customers/${x.id}`, { ...pick(x), phone: '555 0330' }, { 'if-match': `"${x.modified_dt}"` })).status).toBe(200);
    await call(b.copy, 'POST', '/customers', { full_name: 'From B', email: 'from@b.example', phone: '555 0300' });
    await b.sync.sync();
    // A's Otto knows the data version before the server's: its push is refused whole, nothing runs.
    const outdated = createDeviceSync({ store: a.copy.store, server: a.link.send, schema: latestSchemaVersion - 1 });
    const first = await outdated.sync();
    expect(first).toMatchObject({ updateRequired: true, pushed: 0, refused: 0 });
    expect((await everything(server)).customers.get(x.id)).toMatchObject({ phone: x.phone });
    expect([...(await everything(a.copy)).customers.values()].map((c) => c.full_name)).toContain('From B');
    // Known now: the next sync does not even try to push.
    const pushesBefore = a.link.net.pushes;
    expect(await outdated.sync()).toMatchObject({ updateRequired: true, pushed: 0 });
    expect(a.link.net.pushes).toBe(pushesBefore);
    expect((await outdated.state()).waiting).toBe(1);
    // Updated (the same copy, the current Otto): the change goes up.
    expect(await a.sync.sync()).toMatchObject({ pushed: 1, offline: false });
    expect((await everything(server)).customers.get(x.id)).toMatchObject({ phone: '555 0330' });
    expect(await everything(a.copy)).toEqual(await everything(server));
  });

  it('cuts pushes by size under the server’s limit: 200 long notes made offline all reach the server', async () => {
    const { server, a } = await twoDevices(0);
    a.link.net.up = false;
    // Each note and address as long as the contract allows, in characters JSON doubles: about
    // 32 000 characters a write, 6.4 million for the 200, past a push's 4 MiB.
    const details = { notes: '"'.repeat(10_000), addresses: Array.from({ length: 20 }, (_, i) => ({ label: `Site ${i}`, address: '"'.repeat(300) })) };
    const made: Customer[] = [];
    for (let i = 0; i < 200; i++) made.push((await call(a.copy, 'POST', '/customers', { full_name: `Long ${i}`, email: `long${i}@example.com`, phone: '555 0401' })).body as Customer);
    for (const customer of made) expect((await call(a.copy, 'PUT', `/customers/${customer.id}/details`, details)).status).toBe(200);
    a.link.net.up = true;
    expect(await a.sync.sync()).toMatchObject({ pushed: 400, refused: 0, offline: false });
    // 400 writes are two pushes by count (the 200 creates, then the 200 notes); the notes' size makes more.
    expect(a.link.net.pushes).toBeGreaterThan(2);
    const note = (await call(server, 'GET', `/customers/${made[199]!.id}/details`)).body as { notes: string; addresses: unknown[] };
    expect(note.notes).toBe(details.notes);
    expect(note.addresses).toHaveLength(20);
    const onServer = await everything(server);
    expect(onServer.customers.size).toBe(200);
    expect(await everything(a.copy)).toEqual(onServer);
  });

  it('1 000 writes made offline all reach the server once, in one sync', async () => {
    const { server, a } = await twoDevices(0);
    a.link.net.up = false;
    for (let i = 0; i < 1_000; i++) {
      const res = await call(a.copy, 'POST', '/customers', { full_name: `Bulk ${i}`, email: `bulk${i}@example.com`, phone: '555 0400' });
      expect(res.status).toBe(200);
    }
    a.link.net.up = true;
    expect(await a.sync.sync()).toMatchObject({ pushed: 1_000, refused: 0, offline: false });
    expect(a.link.net.pushes).toBe(5);
    expect((await everything(server)).customers.size).toBe(1_000);
    expect(await everything(a.copy)).toEqual(await everything(server));
  });
});

const pick = (c: Customer) => ({ full_name: c.full_name, email: c.email, phone: c.phone });
