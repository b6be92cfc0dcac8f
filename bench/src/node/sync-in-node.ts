// `pnpm --filter @otto/bench sync-node` (issue 40, decision 0163): a new device's first sync from a
// team server of N customers (their jobs and invoices too), then W writes made offline on a device
// pushed and pulled in one sync. The server and the device are each createMockApi on SQLite WASM in
// memory, the network between them a function call: the figures are the protocol's and the
// databases' work, not a network's. Options: --customers=100000 --offline-writes=1000
// --cache=/tmp/sync-server.sqlite3 (keep the seeded server database; seeding 100 000 customers
// takes minutes) --out=results/runs/<date>-sync-node.json
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { requestIdHeader } from '@otto/api-contract';
import { createDeviceSync, createMockApi, makeDevice, seedDatabase, type SyncServer } from '@otto/mock-backend';
import { createSqliteStore } from '@otto/sqlite-store';
import { currentLoad, describeMachine } from './machine';

const quiet = { debug() {}, info() {}, warn: console.warn, error: console.error };
const count = (store: { get<T>(sql: string): T | undefined }, table: string) => store.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)?.n ?? 0;

export async function main(argv: readonly string[]): Promise<void> {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const customers = Number(value('customers') ?? 100_000);
  const offlineWrites = Number(value('offline-writes') ?? 1_000);
  const machine = describeMachine('none (Node only)');
  const date = machine.date;
  const out = resolve(value('out') ?? `results/runs/${date.slice(0, 10)}-sync-node.json`);

  const cache = value('cache');
  const cached = cache && existsSync(cache) ? new Uint8Array(readFileSync(cache)) : undefined;
  const server = await createMockApi({ logger: quiet, seed: false, ...(cached ? { store: createSqliteStore({ storage: 'memory', initialData: cached, logger: quiet }) } : {}) });
  if (!cached) {
    seedDatabase(server.store, { count: customers, fakerSeed: 42 }, Date.now());
    // Seeded beside the change log: the horizon moves up, as createMockApi's own seeding does.
    server.store.run('UPDATE sync_state SET horizon = (SELECT last FROM version_stamp WHERE k = 1) WHERE k = 1');
    if (cache) writeFileSync(cache, server.store.exportDatabase());
  }
  const onServer = { customers: count(server.store, 'customers'), jobs: count(server.store, 'jobs'), invoices: count(server.store, 'invoices') };
  let pulls = 0;
  let pushes = 0;
  let serverMs = 0;
  const link: SyncServer = async (path, init) => {
    if (path.startsWith('/sync/pull')) pulls++;
    if (path === '/sync/push') pushes++;
    const t = performance.now();
    const res = await server.fetch(new Request(`http://server.example/api${path}`, init));
    // The answer's body read here, so that the server's work (and only it) is timed.
    const body = await res.arrayBuffer();
    serverMs += performance.now() - t;
    return new Response(body, { status: res.status, headers: res.headers });
  };

  // A new device: everything comes down, a page at a time.
  const device = await createMockApi({ logger: quiet, seed: false });
  await makeDevice(device.store, 7);
  const sync = createDeviceSync({ store: device.store, server: link });
  const t0 = performance.now();
  const first = await sync.sync();
  const firstMs = performance.now() - t0;
  if (first.offline) throw new Error(`The first sync failed: ${first.error}`);
  const onDevice = { customers: count(device.store, 'customers'), jobs: count(device.store, 'jobs'), invoices: count(device.store, 'invoices') };
  if (JSON.stringify(onDevice) !== JSON.stringify(onServer)) throw new Error(`The device has ${JSON.stringify(onDevice)}, the server ${JSON.stringify(onServer)}.`);
  const firstPulls = pulls;
  const firstServerMs = serverMs;

  // Offline writes: made on the device (each with a request id, as the app's relay sends them), then one sync.
  const t1 = performance.now();
  for (let i = 0; i < offlineWrites; i++) {
    const res = await device.fetch(
      new Request('http://localhost/api/customers', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [requestIdHeader]: `bench-${i}` },
        body: JSON.stringify({ full_name: `Offline ${i}`, email: `offline${i}@example.com`, phone: '555 0100' }),
      }),
    );
    if (res.status !== 200) throw new Error(`An offline write answered ${res.status}.`);
  }
  const madeMs = performance.now() - t1;
  const t2 = performance.now();
  const back = await sync.sync();
  const backMs = performance.now() - t2;
  if (back.pushed !== offlineWrites || back.offline) throw new Error(`The sync after the offline writes pushed ${back.pushed} of ${offlineWrites}: ${back.error ?? ''}`);

  machine.load.end = currentLoad();
  const records = onServer.customers + onServer.jobs + onServer.invoices;
  const result = {
    what: 'A new device’s first sync (GET /api/sync/pull pages into its copy), then offline writes pushed and pulled (POST /api/sync/push), createMockApi on SQLite WASM in memory on both sides, Node',
    machine,
    server: onServer,
    firstSync: { seconds: Math.round(firstMs / 10) / 100, serverSeconds: Math.round(firstServerMs / 10) / 100, pulls: firstPulls, recordsPerSecond: Math.round(records / (firstMs / 1000)) },
    offline: { writes: offlineWrites, madeSeconds: Math.round(madeMs / 10) / 100, syncSeconds: Math.round(backMs / 10) / 100, pushes },
  };
  console.log(`Sync in Node ${process.version}, SQLite WASM in memory on server and device.`);
  console.log(`| what | figure |\n| --- | --- |`);
  console.log(`| first sync of ${onServer.customers.toLocaleString('en')} customers, ${onServer.jobs.toLocaleString('en')} jobs, ${onServer.invoices.toLocaleString('en')} invoices | ${result.firstSync.seconds} s (${firstPulls} pulls, ${result.firstSync.recordsPerSecond.toLocaleString('en')} records/s; the server's part ${result.firstSync.serverSeconds} s) |`);
  console.log(`| ${offlineWrites.toLocaleString('en')} customers created offline on the device | ${result.offline.madeSeconds} s |`);
  console.log(`| then one sync: pushed (${pushes} pushes) and pulled back | ${result.offline.syncSeconds} s |`);
  console.log(`Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB; 1-minute load ${machine.load.start} at start, ${machine.load.end} at end.`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  await device.close();
  await server.close();
}
