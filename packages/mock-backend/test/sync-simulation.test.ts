// A simulation of sync (issue 40, decision 0163): three devices, each the real device engine on its
// own SQLite copy, and a server that restarts; the network goes down and up, loses answers, and
// sends requests twice, on a schedule drawn from a seed (a failing seed is a schedule to replay).
// After quiet, every device's data equals the server's, and every write the server accepted is
// there exactly once.
import { describe, expect, it } from 'vitest';
import { requestIdHeader, type Customer, type Job } from '@otto/api-contract';
import { createSqliteStore } from '@otto/sqlite-store';
import { createMockApi } from '../src/create-mock-api';
import { createLogger } from '../src/logger';
import { createDeviceSync, makeDevice, type SyncServer } from '../src/sync/device-sync';
import type { MockApi } from '../src/types';

const quiet = createLogger({ sink: { debug() {}, info() {}, warn() {}, error() {} } });

/** A small seeded random number generator (a linear congruential one): the same seed, the same schedule. */
const randomFrom = (seed: number) => () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);

async function call(api: MockApi, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await api.fetch(
    new Request(`http://localhost/api${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
  const text = await res.text();
  return { status: res.status, etag: res.headers.get('etag'), body: (text ? JSON.parse(text) : undefined) as unknown };
}

/** What a backend holds, as its API reads it: customers and jobs by id. */
async function contents(api: MockApi) {
  const read = async <T extends { id: string }>(kind: string) => {
    const rows = (await call(api, 'GET', `/${kind}?filterJson=${encodeURIComponent(JSON.stringify({ limit: 1000 }))}`)).body as T[];
    return new Map(rows.map((r) => [r.id, r]));
  };
  return { customers: await read<Customer>('customers'), jobs: await read<Job>('jobs') };
}

async function simulate(seed: number, steps: number) {
  const next = randomFrom(seed);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  // The server's database outlives its process: a restart is a new API on the same store.
  const serverStore = createSqliteStore({ storage: 'memory', logger: quiet });
  // One clock for all: a step is a second, and a day can pass (the server's request log forgets
  // answers after one: a device offline that long must still not run a write twice, nor be told
  // falsely that it was refused).
  let clock = Date.UTC(2026, 11, 1, 8);
  const now = () => clock;
  let server = await createMockApi({ store: serverStore, seed: { count: 6, fakerSeed: seed }, logger: quiet, now });
  let days = 0;
  let restarts = 0;
  // A record whose writes the server can never run: each is answered 500 in its push (the others
  // in the push run). From the first seeded customer on: a device must set such a write aside and
  // go on with the rest (issue 53).
  const poison = (await contents(server)).customers.keys().next().value as string;
  const poisonedPush = async (init: RequestInit | undefined): Promise<Response> => {
    const { writes } = JSON.parse(String(init?.body)) as { writes: { request_id: string; path: string }[] };
    const bad = (w: { path: string }) => w.path.split('?')[0] === `/customers/${poison}`;
    const rest = writes.filter((w) => !bad(w));
    if (rest.length === writes.length) return server.fetch(new Request('http://server.example/api/sync/push', init));
    let ran: { request_id: string }[] = [];
    if (rest.length) {
      const res = await server.fetch(new Request('http://server.example/api/sync/push', { ...init, body: JSON.stringify({ writes: rest }) }));
      if (res.status !== 200) return res;
      ran = ((await res.json()) as { answers: { request_id: string }[] }).answers;
    }
    const failed = { status: 500, body: { code: 'INTERNAL', message: 'The server failed.' }, replayed: false };
    return Response.json({ answers: writes.map((w) => ran.find((a) => a.request_id === w.request_id) ?? { request_id: w.request_id, ...failed }) });
  };
  let pullsChecked = 0;
  const devices = await Promise.all(
    [1, 2, 3].map(async (no) => {
      const copy = await createMockApi({ seed: false, logger: quiet, now });
      await makeDevice(copy.store, no);
      const net = { up: true, loseAnswers: 0, repeat: 0, pushFails: false };
      const send: SyncServer = async (path, init) => {
        if (!net.up) throw new TypeError('Failed to fetch');
        // Pushes answered 503 while reads go through (an overloaded server, a proxy's limit).
        if (net.pushFails && path === '/sync/push') return new Response('Service Unavailable', { status: 503 });
        const request = () => (path === '/sync/push' ? poisonedPush(init) : server.fetch(new Request(`http://server.example/api${path}`, init)));
        // A request sent twice (a retrying proxy): the second one's answer is the one that comes back.
        if (net.repeat > 0) {
          net.repeat--;
          await request();
        }
        const res = await request();
        if (net.loseAnswers > 0) {
          net.loseAnswers--;
          throw new TypeError('The connection was reset');
        }
        return res;
      };
      return { no, copy, net, sync: createDeviceSync({ store: copy.store, server: send }), made: 0 };
    }),
  );
  for (const device of devices) await device.sync.sync();
  let writes = 0;
  for (let step = 0; step < steps; step++) {
    clock += 1_000;
    const device = pick(devices);
    const roll = next();
    const id = `d${device.no}-${step}`;
    if (roll < 0.3) {
      device.made++;
      const made = await call(device.copy, 'POST', '/customers', { full_name: `Sim ${device.no}-${device.made}`, email: `sim${device.no}x${device.made}@example.com`, phone: '555 0100' }, { [requestIdHeader]: id });
      expect(made.status).toBe(200);
      writes++;
    } else if (roll < 0.45) {
      // An edit over the version the device shows (a phone, or a name: other devices may edit either).
      const { customers } = await contents(device.copy);
      const target = customers.size ? pick([...customers.values()]) : undefined;
      if (target) {
        const field = next() < 0.5 ? { phone: `555 ${String(step).padStart(4, '0')}` } : { full_name: `${target.full_name.split(' (')[0]} (${step})` };
        const edited = await call(device.copy, 'PUT', `/customers/${target.id}`, { full_name: target.full_name, email: target.email, phone: target.phone, ...field }, { 'if-match': `"${target.modified_dt}"`, [requestIdHeader]: id });
        expect(edited.status).toBe(200);
        writes++;
      }
    } else if (roll < 0.55) {
      const { jobs } = await contents(device.copy);
      const open = [...jobs.values()].filter((j) => j.status === 'quote');
      if (open.length) {
        const moved = await call(device.copy, 'POST', `/jobs/${pick(open).id}/move`, { status: 'cancelled' }, { [requestIdHeader]: id });
        expect(moved.status).toBe(200);
        writes++;
      }
    } else if (roll < 0.65) {
      device.net.up = !device.net.up;
    } else if (roll < 0.7) {
      device.net.loseAnswers = 1 + Math.floor(next() * 2);
    } else if (roll < 0.73) {
      device.net.repeat = 1;
    } else if (roll < 0.75) {
      device.net.pushFails = !device.net.pushFails;
    } else if (roll < 0.765) {
      clock += 25 * 60 * 60 * 1000;
      days++;
    } else if (roll < 0.78) {
      await server.close();
      server = await createMockApi({ store: serverStore, seed: false, logger: quiet, now });
      restarts++;
    } else {
      // No answer will be lost in this sync (a lost one makes it stop, as offline).
      const clean = device.net.up && device.net.loseAnswers === 0;
      const report = await device.sync.sync();
      // Pulls are never held by waiting writes: once a sync reached the server (its answers came
      // back), the copy has every customer as the server has it, except those its waiting writes
      // touched.
      if (clean) {
        const state = await device.sync.state();
        if (state.position !== undefined) {
          // What the device's waiting writes touched (an answer lost: run on the server, waiting here).
          const waiting = device.copy.store.all<{ touched: string }>('SELECT touched FROM sync_outbox WHERE refused IS NULL AND confirmed IS NULL');
          const touched = new Set(waiting.flatMap((w) => (JSON.parse(w.touched) as { entity: string; ids: string[] }[]).filter((e) => e.entity === 'customer').flatMap((e) => e.ids)));
          const truth = await contents(server);
          const copy = await contents(device.copy);
          for (const [id, customer] of truth.customers) if (!touched.has(id)) expect(copy.customers.get(id), `customer ${id} on device ${device.no} after a sync (seed ${seed}, step ${step}): ${JSON.stringify(report)}`).toEqual(customer);
          pullsChecked++;
        }
      }
    }
  }
  // Quiet: every device back online, nothing lost or repeated any more; each syncs until nothing waits.
  // The poisoned record stays poisoned: what waits for it must not wait for ever.
  for (const device of devices) Object.assign(device.net, { up: true, loseAnswers: 0, repeat: 0, pushFails: false });
  for (let round = 0; round < 5; round++) for (const device of devices) await device.sync.sync();
  const truth = await contents(server);
  for (const device of devices) {
    const state = await device.sync.state();
    expect(state.waiting).toBe(0);
    const copy = await contents(device.copy);
    expect(copy.customers).toEqual(truth.customers);
    expect(copy.jobs).toEqual(truth.jobs);
  }
  // Every create the server accepted is there once: by name (each create names its own customer).
  const names = [...truth.customers.values()].map((c) => c.full_name.split(' (')[0]!).filter((n) => n.startsWith('Sim '));
  expect(new Set(names).size).toBe(names.length);
  const notices = (await Promise.all(devices.map((d) => d.sync.state()))).flatMap((s) => s.notices);
  const refusedCreates = notices.filter((n) => n.method === 'POST' && n.path === '/customers');
  expect(refusedCreates).toEqual([]);
  expect(names.length).toBe(devices.reduce((sum, d) => sum + d.made, 0));
  // Only the poisoned record's writes were set aside (the others ran, or were refused by a rule).
  const setAside = notices.filter((n) => n.retry);
  for (const notice of setAside) expect(notice.path).toBe(`/customers/${poison}`);
  await Promise.all([server.close(), ...devices.map((d) => d.copy.close())]);
  return { writes, restarts, setAside: setAside.length, pullsChecked, days };
}

/**
 * Seeds whose schedules write to the poisoned record (of 1 to 40, all but nine do; all 40 pass);
 * seed 27 also finds a write run while it waited kept as this device made it (no pull again).
 */
const setAsideSeeds: number[] = [3, 12, 27];

describe('sync, simulated: devices offline and online, a server restarting, answers lost and requests repeated', () => {
  // Seeds whose schedules restart the server and let a day pass at least once (of 1 to 20, seeds
  // 3, 4 and 10 restart it never; 1, 6, 13 and 14 let no day pass), so that each asserts its name.
  for (const seed of [2, 5, 7, 8, 9, 15]) {
    it(`ends with every device equal to the server and each accepted write there once, the server restarted and a day passed (seed ${seed})`, async () => {
      const { writes, restarts, pullsChecked, days } = await simulate(seed, 90);
      expect(writes).toBeGreaterThan(20);
      expect(restarts).toBeGreaterThan(0);
      expect(days).toBeGreaterThan(0);
      expect(pullsChecked).toBeGreaterThan(0);
    }, 60_000);
  }
  // Seeds whose schedules edit the record the server can never save: a device sets those writes
  // aside (a notice with a retry) and every other write and pull goes on.
  for (const seed of setAsideSeeds) {
    it(`sets aside the writes the server can never run and nothing else, and no write waits for ever (seed ${seed})`, async () => {
      const { setAside } = await simulate(seed, 90);
      expect(setAside).toBeGreaterThan(0);
    }, 60_000);
  }
});
