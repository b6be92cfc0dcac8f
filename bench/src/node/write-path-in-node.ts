// `pnpm --filter @otto/bench write-path-node` (issue 57, decision 0167): the write path of
// createMockApi with the change log (a team server, which devices pull from) and without it (the
// app alone, a device's copy): W creates, then W edits (PUT with If-Match) of customers, over a
// database of N customers, each call timed; median and p95 per call, in ms. Options:
// --customers=10000 --writes=2000 --out=results/runs/<date>-write-path-node.json
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { requestIdHeader, type Customer } from '@otto/api-contract';
import { createMockApi, seedDatabase } from '@otto/mock-backend';
import { currentLoad, describeMachine } from './machine';

const quiet = { debug() {}, info() {}, warn: console.warn, error: console.error };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number;
const round = (ms: number) => Math.round(ms * 1000) / 1000;

async function measure(changeLog: boolean, customers: number, writes: number) {
  const api = await createMockApi({ logger: quiet, seed: false, changeLog });
  seedDatabase(api.store, { count: customers, jobs: false, fakerSeed: 42 }, Date.now());
  const call = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const t = performance.now();
    const res = await api.fetch(
      new Request(`http://localhost/api${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }),
    );
    const json = (await res.json()) as Customer;
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}.`);
    return { ms, json };
  };
  const created: Customer[] = [];
  const createMs: number[] = [];
  for (let i = 0; i < writes; i++) {
    const { ms, json } = await call('POST', '/customers', { full_name: `Bench ${i}`, email: `bench${i}@example.com`, phone: '555 0100' }, { [requestIdHeader]: `c-${changeLog}-${i}` });
    createMs.push(ms);
    created.push(json);
  }
  const updateMs: number[] = [];
  for (const [i, c] of created.entries()) {
    const { ms } = await call('PUT', `/customers/${c.id}`, { full_name: `${c.full_name} edited`, email: c.email, phone: c.phone }, { 'if-match': `"${c.modified_dt}"`, [requestIdHeader]: `u-${changeLog}-${i}` });
    updateMs.push(ms);
  }
  await api.close();
  const figures = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return { medianMs: round(percentile(sorted, 50)), p95Ms: round(percentile(sorted, 95)) };
  };
  return { create: figures(createMs), update: figures(updateMs) };
}

export async function main(argv: readonly string[]): Promise<void> {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const customers = Number(value('customers') ?? 10_000);
  const writes = Number(value('writes') ?? 2_000);
  const machine = describeMachine('none (Node only)');
  const out = resolve(value('out') ?? `results/runs/${machine.date.slice(0, 10)}-write-path-node.json`);
  // Each twice, alternating, the second of each kept: the first warms the engine.
  await measure(true, customers, Math.min(writes, 300));
  await measure(false, customers, Math.min(writes, 300));
  const withLog = await measure(true, customers, writes);
  const withoutLog = await measure(false, customers, writes);
  machine.load.end = currentLoad();
  const result = { what: `The write path of createMockApi over ${customers} customers, ${writes} creates then ${writes} edits, with and without the change log, Node, SQLite WASM in memory`, machine, withLog, withoutLog };
  console.log(`Write path in Node ${process.version}, SQLite WASM in memory, ${customers.toLocaleString('en')} customers, ${writes.toLocaleString('en')} of each.`);
  console.log('| call | with the change log (a team server) | without (the app alone, a device) |\n| --- | --- | --- |');
  for (const kind of ['create', 'update'] as const) {
    console.log(`| ${kind} | ${withLog[kind].medianMs} ms (p95 ${withLog[kind].p95Ms}) | ${withoutLog[kind].medianMs} ms (p95 ${withoutLog[kind].p95Ms}) |`);
  }
  console.log(`Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB; 1-minute load ${machine.load.start} at start, ${machine.load.end} at end.`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
}
