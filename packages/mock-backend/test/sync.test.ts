// Sync's server half (issue 40, decision 0163): pull from a position, push in order exactly once.
import { describe, expect, it } from 'vitest';
import { syncLimits, syncPullSchema, syncPushSchema, type SyncPull, type SyncWrite } from '@otto/api-contract';
import { createSqliteStore } from '@otto/sqlite-store';
import { startApi } from './helpers';
import { latestSchemaVersion, migrations } from '../src/database/migrations';

type Api = Awaited<ReturnType<typeof startApi>>;

const pullOnce = async (t: Api, query: Record<string, unknown> = {}) => {
  const res = await t.call('GET', `/api/sync/pull?filterJson=${encodeURIComponent(JSON.stringify(query))}`);
  expect(res.status, res.text).toBe(200);
  return syncPullSchema.parse(res.json);
};

/** A device's copy, made only of what pulls said: records by id, and where it is. */
function deviceCopy() {
  const copy = { customers: new Map<string, unknown>(), jobs: new Map<string, unknown>(), invoices: new Map<string, unknown>(), details: new Map<string, unknown>(), epoch: undefined as string | undefined, position: undefined as number | undefined, pages: 0 };
  const apply = (pulled: SyncPull) => {
    copy.pages++;
    if (pulled.reset) for (const map of [copy.customers, copy.jobs, copy.invoices, copy.details]) map.clear();
    for (const c of pulled.records.customers) copy.customers.set(c.id, c);
    for (const d of pulled.records.customer_details) copy.details.set(d.customer_id, d);
    for (const j of pulled.records.jobs) copy.jobs.set(j.id, j);
    for (const i of pulled.records.invoices) copy.invoices.set(i.id, i);
    for (const id of pulled.deleted.customers) {
      copy.customers.delete(id);
      copy.details.delete(id);
    }
    for (const id of pulled.deleted.jobs) copy.jobs.delete(id);
    for (const id of pulled.deleted.invoices) copy.invoices.delete(id);
  };
  const sync = async (t: Api) => {
    let pulled = await pullOnce(t, { ...(copy.epoch ? { epoch: copy.epoch } : {}), ...(copy.position !== undefined ? { since: copy.position } : {}) });
    apply(pulled);
    while (pulled.next) {
      pulled = await pullOnce(t, { page: pulled.next });
      apply(pulled);
    }
    copy.epoch = pulled.epoch;
    copy.position = pulled.position;
  };
  return { copy, sync };
}

/** Everything the server has, read through the API's lists (archived customers and jobs too). */
async function serverState(t: Api) {
  const fresh = deviceCopy();
  await fresh.sync(t);
  return fresh.copy;
}

/** Records without the customer name they carry (a device reads it off the customer). */
const withoutNames = (records: Map<string, unknown>) => new Map([...records].map(([id, r]) => [id, { ...(r as object), customer_name: undefined }]));

const push = async (t: Api, writes: SyncWrite[]) => {
  const res = await t.call('POST', '/api/sync/push', { writes });
  expect(res.status, res.text).toBe(200);
  return syncPushSchema.parse(res.json).answers;
};

describe('pull', () => {
  it('gives a new device everything in pages, then only what changed since its position', async () => {
    const t = await startApi({ seed: { count: 1_200, fakerSeed: 3 } });
    const device = deviceCopy();
    await device.sync(t);
    expect(device.copy.customers.size).toBe(1_200);
    expect(device.copy.pages).toBeGreaterThan(2);
    const jobs = (await t.call('GET', '/api/jobs?filterJson=%7B%22limit%22%3A1%7D')).headers.get('x-total-count');
    expect(device.copy.jobs.size).toBe(Number(jobs));

    // A change, a new customer, a deletion: the next pull names exactly those.
    const first = [...device.copy.customers.keys()][0]!;
    const renamed = await t.call('PUT', `/api/customers/${first}`, { full_name: 'Renamed Customer', email: 'renamed@example.com', phone: '555 0100' });
    expect(renamed.status).toBe(200);
    const made = (await t.create({ full_name: 'Newly Made', email: 'new@example.com', phone: '555 0101' })).json as { id: string };
    const job = (await t.call('POST', '/api/jobs', { customer_id: made.id, title: 'Fix the gate' })).json as { id: string };
    expect((await t.call('POST', `/api/jobs/${job.id}/archive`)).status).toBe(200);
    expect((await t.call('DELETE', `/api/jobs/${job.id}`)).status).toBeLessThan(300);
    const before = device.copy.position!;
    const pulled = await pullOnce(t, { epoch: device.copy.epoch, since: before });
    expect(pulled.reset).toBe(false);
    expect(pulled.records.customers.map((c) => c.full_name).sort()).toEqual(['Newly Made', 'Renamed Customer']);
    expect(pulled.deleted.jobs).toEqual([job.id]);
    expect(pulled.position).toBeGreaterThan(before);
    await device.sync(t);
    const server = await serverState(t);
    expect(device.copy.customers).toEqual(server.customers);
    // A job's customer_name is its customer's, joined when read: a device joins it too.
    expect(withoutNames(device.copy.jobs)).toEqual(withoutNames(server.jobs));
    // Nothing changed since: an empty answer at the same position.
    const again = await pullOnce(t, { epoch: device.copy.epoch, since: device.copy.position });
    expect(again).toMatchObject({ reset: false, position: device.copy.position, next: null, records: { customers: [], jobs: [] } });
    await t.api.close();
  });

  it('pages a long log by whole writes, and starts over for another epoch, a position it does not keep, or one from the future', async () => {
    const t = await startApi({ seed: { count: 5, fakerSeed: 1 } });
    const device = deviceCopy();
    await device.sync(t);
    const start = device.copy.position!;
    for (let i = 0; i < syncLimits.maxPullRecords + 50; i++) {
      const res = await t.call('POST', '/api/customers', { full_name: `Customer ${i}`, email: `c${i}@example.com`, phone: '555 0199' });
      expect(res.status).toBe(200);
    }
    const first = await pullOnce(t, { epoch: device.copy.epoch, since: start });
    expect(first.records.customers).toHaveLength(syncLimits.maxPullRecords);
    expect(first.next).not.toBeNull();
    const second = await pullOnce(t, { page: first.next });
    expect(second.records.customers).toHaveLength(50);
    expect(second.next).toBeNull();
    await device.sync(t);
    expect(device.copy.customers.size).toBe(syncLimits.maxPullRecords + 55);

    expect((await pullOnce(t, { epoch: 'abcdef0123456789', since: device.copy.position })).reset).toBe(true);
    expect((await pullOnce(t, { epoch: device.copy.epoch, since: 1 })).reset).toBe(true);
    expect((await pullOnce(t, { epoch: device.copy.epoch, since: device.copy.position! + 1_000_000 })).reset).toBe(true);
    const bad = await t.call('GET', `/api/sync/pull?filterJson=${encodeURIComponent(JSON.stringify({ page: 'x.1' }))}`);
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'INVALID_PARAMS' });
    const notANumber = await t.call('GET', `/api/sync/pull?filterJson=${encodeURIComponent(JSON.stringify({ since: 'soon' }))}`);
    expect(notANumber.status).toBe(400);
    await t.api.close();
  });

  it('names invoices, settings and notes that changed, and a restored snapshot is a new epoch', async () => {
    const t = await startApi();
    const device = deviceCopy();
    await device.sync(t);
    const customer = (await t.create({ full_name: 'Ivy Invoice', email: 'ivy@example.com', phone: '555 0199' })).json as { id: string };
    expect((await t.call('PUT', `/api/customers/${customer.id}/details`, { notes: 'Gate code 4411', addresses: [] })).status).toBe(200);
    const job = (await t.call('POST', '/api/jobs', { customer_id: customer.id, title: 'Boiler', price_cents: 10_000 })).json as { id: string };
    t.api.store.run("UPDATE jobs SET status = 'completed', completed_dt = ? WHERE id = ?", [t.clock.now(), Number(job.id)]);
    const invoice = await t.call('POST', '/api/invoices', {
      customer_id: customer.id,
      job_ids: [job.id],
      lines: [{ description: 'Boiler', quantity: 1, unit_price_cents: 10_000, tax_rate_bp: 2000 }],
      issue_date: '2026-11-01',
      due_date: '2026-11-15',
    });
    expect(invoice.status, invoice.text).toBe(200);
    expect((await t.call('PUT', '/api/settings/business', { name: 'Acme Plumbing' })).status).toBe(200);
    const pulled = await pullOnce(t, { epoch: device.copy.epoch, since: device.copy.position });
    expect(pulled.records.customer_details).toMatchObject([{ customer_id: customer.id, notes: 'Gate code 4411' }]);
    expect(pulled.records.invoices).toMatchObject([{ customer_id: customer.id, total_cents: 12_000 }]);
    // Issuing the invoice moved the job to invoiced: the job comes as it is now.
    expect(pulled.records.jobs).toMatchObject([{ id: job.id, status: 'invoiced' }]);
    expect(pulled.records.settings).toMatchObject([{ name: 'Acme Plumbing' }]);
    await device.sync(t);

    expect((await t.call('POST', '/api/__otto/snapshot', { name: 'before' })).status).toBe(200);
    expect((await t.call('PUT', '/api/__otto/data', { customers: [{ full_name: 'Only One', email: 'one@example.com', phone: '555 0199' }] })).status).toBe(200);
    const replaced = await pullOnce(t, { epoch: device.copy.epoch, since: device.copy.position });
    expect(replaced.reset).toBe(true);
    await device.sync(t);
    expect([...device.copy.customers.values()]).toMatchObject([{ full_name: 'Only One' }]);
    await t.api.close();
  });
});

describe('the change log, kept only where something pulls', () => {
  it('keeps no log where nothing pulls (a pull then answers everything); turned on, it is complete from then on', async () => {
    const store = createSqliteStore({ storage: 'memory' });
    const local = await startApi({ store, changeLog: false });
    const device = deviceCopy();
    const { copy } = device;
    await device.sync(local);
    expect((await local.call('POST', '/api/customers', { full_name: 'Logged nowhere', email: 'nowhere@example.com', phone: '555 0100' })).status).toBe(200);
    // Nothing was logged, and a pull from a position gets everything again (it cannot know what changed).
    expect(store.get<{ n: number }>('SELECT count(*) AS n FROM sync_log')?.n).toBe(0);
    const again = await pullOnce(local, { epoch: copy.epoch, since: copy.position });
    expect(again.reset).toBe(true);
    await local.api.close();
    // The same file served with the log: a device that pulled before takes everything once, then only changes.
    const served = await startApi({ store, seed: false });
    await device.sync(served);
    expect([...copy.customers.values()].map((c) => (c as { full_name: string }).full_name)).toContain('Logged nowhere');
    const made = (await served.call('POST', '/api/customers', { full_name: 'Logged here', email: 'here@example.com', phone: '555 0101' })).json as { id: string };
    const changed = await pullOnce(served, { epoch: copy.epoch, since: copy.position });
    expect(changed.reset).toBe(false);
    expect(changed.records.customers.map((c) => c.id)).toEqual([made.id]);
    await served.api.close();
  });
});

describe('a schema step on the server', () => {
  it('makes the data another epoch: a device that pulled before takes everything once', async () => {
    const store = createSqliteStore({ storage: 'memory' });
    await store.open();
    // A server's database one step behind this code, with a device's position on it.
    store.migrate(migrations.slice(0, latestSchemaVersion - 1));
    const before = store.get<{ epoch: string; last: number }>('SELECT epoch, (SELECT last FROM version_stamp WHERE k = 1) AS last FROM sync_state WHERE k = 1')!;
    const t = await startApi({ store, seed: false });
    const pulled = await pullOnce(t, { epoch: before.epoch, since: Number(before.last) });
    expect(pulled.reset).toBe(true);
    expect(pulled.epoch).not.toBe(before.epoch);
    // Once: from the new epoch and position, only changes.
    expect((await pullOnce(t, { epoch: pulled.epoch, since: pulled.position })).reset).toBe(false);
    await t.api.close();
  });
});

describe('push', () => {
  it('runs the writes in order, each once: a push sent again replays its answers and changes nothing', async () => {
    const t = await startApi();
    const writes: SyncWrite[] = [
      { request_id: 'dev-a:1', method: 'POST', path: '/customers', body: { full_name: 'Ada Offline', email: 'ada@example.com', phone: '555 0199' } },
      { request_id: 'dev-a:2', method: 'POST', path: '/customers', body: { full_name: 'Bob Offline', email: 'bob@example.com', phone: '555 0199' } },
    ];
    const answers = await push(t, writes);
    expect(answers.map((a) => [a.request_id, a.status, a.replayed])).toEqual([
      ['dev-a:1', 200, false],
      ['dev-a:2', 200, false],
    ]);
    const again = await push(t, writes);
    expect(again.map((a) => a.replayed)).toEqual([true, true]);
    expect(again.map((a) => a.body)).toEqual(answers.map((a) => a.body));
    expect((await t.call('GET', '/api/customers')).headers.get('x-total-count')).toBe('2');
    await t.api.close();
  });

  it('answers each write as HTTP would: a refusal does not stop the writes after it', async () => {
    const t = await startApi();
    const ada = (await t.create({ full_name: 'Ada', email: 'ada@example.com', phone: '555 0199' })).json as { id: string; modified_dt: number };
    expect((await t.call('PUT', `/api/customers/${ada.id}`, { full_name: 'Ada B', email: 'ada@example.com', phone: '555 0199' })).status).toBe(200);
    const answers = await push(t, [
      // Made over the version before another device's edit: 412, and nothing changes.
      { request_id: 'dev-b:1', method: 'PUT', path: `/customers/${ada.id}`, body: { full_name: 'Ada C', email: 'ada@example.com', phone: '555 0199' }, if_match: `"${ada.modified_dt}"` },
      { request_id: 'dev-b:2', method: 'POST', path: '/jobs', body: { customer_id: ada.id, title: '' } },
      { request_id: 'dev-b:3', method: 'POST', path: '/jobs', body: { customer_id: ada.id, title: 'Still runs' } },
      { request_id: 'dev-b:4', method: 'POST', path: '/sync/push', body: { writes: [] } },
      { request_id: 'dev-b:5', method: 'POST', path: '/__otto/data', body: {} },
      { request_id: 'dev-b:6', method: 'DELETE', path: '/customers' },
    ]);
    expect(answers.map((a) => a.status)).toEqual([412, 400, 200, 404, 404, 404]);
    expect(answers[0]!.body).toMatchObject({ code: 'PRECONDITION_FAILED' });
    expect(answers[1]!.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(((await t.call('GET', `/api/customers/${ada.id}`)).json as { full_name: string }).full_name).toBe('Ada B');
    // The same request id for another request is refused, as over HTTP.
    const reused = await push(t, [{ request_id: 'dev-b:3', method: 'POST', path: '/jobs', body: { customer_id: ada.id, title: 'Another' } }]);
    expect(reused[0]).toMatchObject({ status: 422, body: { code: 'REQUEST_ID_REUSED' } });
    await t.api.close();
  });

  it('refuses whole, in words, a push from an Otto older than its data, and says its own data version in every pull', async () => {
    const t = await startApi();
    const write: SyncWrite = { request_id: 'old-device:1', method: 'POST', path: '/customers', body: { full_name: 'From an old Otto', email: 'old@example.com', phone: '555 0100' } };
    const refused = await t.call('POST', '/api/sync/push', { writes: [write], schema: latestSchemaVersion - 1 });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: 'UPDATE_REQUIRED', message: expect.stringMatching(/older Otto.*reload the page/) });
    expect((await t.call('GET', '/api/customers')).headers.get('x-total-count')).toBe('0');
    // The same Otto's, or one that does not say (another client of the contract), runs.
    expect((await t.call('POST', '/api/sync/push', { writes: [write], schema: latestSchemaVersion })).status).toBe(200);
    expect((await pullOnce(t)).schema).toBe(latestSchemaVersion);
    await t.api.close();
  });

  it('refuses a push that is not a list of writes, in words', async () => {
    const t = await startApi();
    for (const body of ['{', { writes: [] }, { writes: [{ request_id: 'has space', method: 'POST', path: '/customers' }] }, { writes: [{ request_id: 'a', method: 'GET', path: '/customers' }] }]) {
      const res = await t.call('POST', '/api/sync/push', body);
      expect(res.status).toBe(400);
      expect((res.json as { message: string }).message.length).toBeGreaterThan(10);
    }
    await t.api.close();
  });
});

describe('devices that lose answers and send pushes again', () => {
  // A small seeded random number generator: the schedule a failure shows can be run again.
  const random = (seed: number) => () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);

  for (const seed of [1, 2, 3, 4, 5]) {
    it(`ends with every device equal to the server and each accepted write there once (seed ${seed})`, async () => {
      const t = await startApi();
      const next = random(seed);
      const devices = ['a', 'b', 'c'].map((name) => ({ name, outbox: [] as SyncWrite[], made: 0, replica: deviceCopy() }));
      const accepted = new Set<string>();
      for (let step = 0; step < 120; step++) {
        const device = devices[Math.floor(next() * devices.length)]!;
        const roll = next();
        if (roll < 0.5) {
          const n = ++device.made;
          device.outbox.push({ request_id: `${device.name}:${n}`, method: 'POST', path: '/customers', body: { full_name: `${device.name} customer ${n}`, email: `${device.name}${n}@example.com`, phone: '555 0199' } });
        } else if (roll < 0.8 && device.outbox.length > 0) {
          const batch = device.outbox.slice(0, 1 + Math.floor(next() * device.outbox.length));
          const answers = await push(t, batch);
          for (const answer of answers) if (answer.status === 200) accepted.add(answer.request_id);
          // The answer is lost on the way back one time in three: the device sends the same writes again later.
          if (next() > 1 / 3) device.outbox.splice(0, batch.length);
        } else {
          await device.replica.sync(t);
        }
      }
      // Quiet: every device pushes what it has and pulls.
      for (const device of devices) {
        if (device.outbox.length) for (const answer of await push(t, device.outbox)) accepted.add(answer.request_id);
        device.outbox = [];
      }
      for (const device of devices) await device.replica.sync(t);
      const server = await serverState(t);
      const names = [...server.customers.values()].map((c) => (c as { full_name: string }).full_name);
      expect(names).toHaveLength(new Set(names).size);
      expect(names).toHaveLength(accepted.size);
      for (const device of devices) expect(device.replica.copy.customers).toEqual(server.customers);
      await t.api.close();
    });
  }
});
