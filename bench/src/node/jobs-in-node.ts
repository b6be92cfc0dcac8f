// `pnpm --filter @otto/bench jobs-node`: the job calls timed in Node, on SQLite WASM in memory (no
// relay, no OPFS), with createMockApi seeding its customers and their jobs, as issue 21 measured
// them. Options: --sizes=100000,400000 (default), --iterations=50, --jobs=300000 (tops each size up
// to that many jobs: copies of the seeded ones moved up to 30 days either way, issue 39's schedule).
import { createMockApi, giveJobsInvoices, seedDatabase, type MockApi } from '@otto/mock-backend';
import { jobOps, jobSearchTerm, makeMoveJobs, runLoops, type BenchOp, type BenchRequest, type JobContext } from '../shared/ops';
import { summarize } from './stats';

const quiet = { debug() {}, info() {}, warn: console.warn, error: console.error };

function send(api: MockApi) {
  return async (request: BenchRequest) => {
    const response = await api.fetch(
      new Request(`http://localhost${request.path}`, {
        method: request.method,
        ...(request.body ? { body: request.body, headers: { 'content-type': 'application/json' } } : {}),
      }),
    );
    await response.json();
    return response;
  };
}

const ops: readonly BenchOp[] = [...jobOps, 'list-first', 'get'];

export async function main(argv: readonly string[]): Promise<void> {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const sizes = (value('sizes') ?? '100000,400000').split(',').map(Number).filter((n) => n > 0);
  const iterations = Number(value('iterations') ?? 50);
  console.log(`Jobs in Node ${process.version}, SQLite WASM in memory, ${iterations} iterations per call (median / p95 ms).`);
  for (const n of sizes) {
    const started = performance.now();
    // Seeded here, not by createMockApi: it imports its seeding code lazily, which Vite's module
    // runner (bin/jobs-node.mjs) no longer serves once the entry has loaded.
    const api = await createMockApi({ logger: quiet, seed: false });
    const seeded = seedDatabase(api.store, { count: n, fakerSeed: 42 }, Date.now());
    const wantJobs = Number(value('jobs') ?? 0);
    if (wantJobs > seeded.jobs) {
      api.store.transaction(() => {
        api.store.run(
          `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
           INSERT INTO jobs (customer_id, title, description, service_address, status, assignee, scheduled_start_dt, scheduled_end_dt,
             price_cents, created_dt, modified_dt, quote_dt, scheduled_dt, in_progress_dt, completed_dt, invoiced_dt, paid_dt, cancelled_dt)
           SELECT j.customer_id, j.title, j.description, j.service_address, j.status, j.assignee,
             j.scheduled_start_dt + ((n.i * 7919) % 61 - 30) * 86400000, j.scheduled_end_dt + ((n.i * 7919) % 61 - 30) * 86400000,
             j.price_cents, j.created_dt, j.modified_dt, j.quote_dt, j.scheduled_dt, j.in_progress_dt, j.completed_dt, j.invoiced_dt, j.paid_dt, j.cancelled_dt
           FROM n JOIN jobs j ON j.id = 1 + n.i % ?`,
          [wantJobs - seeded.jobs - 1, seeded.jobs],
        );
        giveJobsInvoices(api.store);
      });
      seeded.jobs = wantJobs;
    }
    const seededMs = performance.now() - started;
    const call = send(api);
    const raw = async (request: BenchRequest) =>
      api.fetch(new Request(`http://localhost${request.path}`, { method: request.method, ...(request.body ? { body: request.body, headers: { 'content-type': 'application/json' } } : {}) }));
    const moveIds = await makeMoveJobs(raw, 16);
    const jobs: JobContext = { count: seeded.jobs, term: jobSearchTerm, moveIds };
    const samples = await runLoops({ ops, warmup: 5, iterations, ctx: { n, terms: { common: 'gmail', rare: 'x', prefix: 'mar' }, jobs } }, call);
    console.log(`\n${n.toLocaleString('en')} customers, ${seeded.jobs.toLocaleString('en')} jobs (seeded in ${(seededMs / 1000).toFixed(1)} s)`);
    console.log('| call | median / p95 |\n| --- | --- |');
    for (const op of ops) {
      const s = summarize(samples[op] ?? []);
      console.log(`| ${op} | ${s.median.toFixed(2)} / ${s.p95.toFixed(2)} |`);
    }
    await api.close();
  }
}
