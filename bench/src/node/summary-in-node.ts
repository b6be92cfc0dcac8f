// `pnpm --filter @otto/bench summary-node`: GET /api/reports/summary (issue 15) timed in Node, on
// SQLite WASM in memory (no relay, no OPFS), as the job figures of decision 0021 are. createMockApi
// seeds the customers and their jobs; the jobs are then topped up to the target by copying seeded
// jobs to random customers (the same mix of statuses, prices and dates). Options:
// --customers=100000 --jobs=300000 --iterations=30 --out=results/runs/<date>-summary-node.json
// --cache=/tmp/summary.sqlite3: keep the seeded database in that file and start from it next time
// (seeding 100 000 customers takes minutes; the file is migrated to the current schema on open).
// --chromium: also restore the same database into the production build (apps/web/dist) in Chromium
// (the app's own "Replace my data", OPFS) and time the call as the page makes it: fetch → service
// worker → DB worker → answer read. Inside the DB worker it takes less than that.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { reportSummarySchema } from '@otto/api-contract';
import { createMockApi, giveJobsInvoices, seedDatabase } from '@otto/mock-backend';
import { createSqliteStore } from '@otto/sqlite-store';
import { withAppPage } from './chromium';
import { summarize, type Summary } from './stats';

/** Restores `database` with the app's Backup dialog, then times the summary `iterations` times from the page. */
async function inChromium(database: Uint8Array, path: string, iterations: number): Promise<{ ms: Summary; owedJobs: number }> {
  return withAppPage(async (page) => {
    await page.getByRole('button', { name: 'Backup and export' }).first().click();
    await page.locator('input[type=file]').setInputFiles({ name: 'summary-bench.sqlite3', mimeType: 'application/vnd.sqlite3', buffer: Buffer.from(database) });
    await page.getByRole('button', { name: 'Replace my data' }).click();
    // Restored, or refused in words (an app built before the bench's schema, say): never a silent wait.
    const refused = page.getByRole('dialog').getByRole('alert');
    await page.getByText(/^Restored /).or(refused).first().waitFor({ timeout: 600_000 });
    if (await refused.count()) throw new Error(`The app refused the database: ${await refused.first().innerText()}`);
    const samples = await page.evaluate(
      async ({ path, iterations }) => {
        let owedJobs = -1;
        const once = async () => {
          const t0 = performance.now();
          const res = await fetch(path);
          const body = (await res.json()) as { owed: { jobs: number } };
          if (res.status !== 200) throw new Error(`summary answered ${res.status}`);
          owedJobs = body.owed.jobs;
          return performance.now() - t0;
        };
        for (let i = 0; i < 3; i++) await once();
        const ms: number[] = [];
        for (let i = 0; i < iterations; i++) ms.push(await once());
        return { ms, owedJobs };
      },
      { path, iterations },
    );
    return { ms: summarize(samples.ms), owedJobs: samples.owedJobs };
  });
}

const quiet = { debug() {}, info() {}, warn: console.warn, error: console.error };
const load = () => Math.round((loadavg()[0] ?? 0) * 100) / 100;

export async function main(argv: readonly string[]): Promise<void> {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const customers = Number(value('customers') ?? 100_000);
  const targetJobs = Number(value('jobs') ?? 300_000);
  const iterations = Number(value('iterations') ?? 30);
  const date = new Date().toISOString();
  const out = resolve(value('out') ?? `results/runs/${date.slice(0, 10)}-summary-node.json`);
  const loadAtStart = load();

  const started = performance.now();
  const cache = value('cache');
  const cached = cache && existsSync(cache) ? new Uint8Array(readFileSync(cache)) : undefined;
  // Seeded here rather than by createMockApi: its lazy import of the seeder would run after vite's
  // module runner (bin/summary-node.mjs) has closed.
  const api = await createMockApi({
    logger: quiet,
    seed: false,
    ...(cached ? { store: createSqliteStore({ storage: 'memory', initialData: cached, logger: quiet }) } : {}),
  });
  const store = api.store;
  if (!cached) {
    seedDatabase(store, { count: customers, fakerSeed: 42 }, Date.now());
    const seeded = store.get<{ n: number }>('SELECT count(*) AS n FROM jobs')?.n ?? 0;
    const missing = Math.max(0, targetJobs - seeded);
    store.transaction(() => {
      store.run(
        `INSERT INTO jobs (customer_id, title, description, service_address, status, assignee, scheduled_start_dt, scheduled_end_dt,
           price_cents, created_dt, modified_dt, quote_dt, scheduled_dt, in_progress_dt, completed_dt, invoiced_dt, paid_dt, cancelled_dt)
         SELECT (abs(random()) % ?) + 1, title, description, service_address, status, assignee, scheduled_start_dt, scheduled_end_dt,
           price_cents, created_dt, modified_dt, quote_dt, scheduled_dt, in_progress_dt, completed_dt, invoiced_dt, paid_dt, cancelled_dt
         FROM (SELECT * FROM jobs ORDER BY id LIMIT ?), (SELECT value FROM json_each(?))
         LIMIT ?`,
        [customers, seeded, JSON.stringify(Array.from({ length: Math.ceil(missing / Math.max(1, seeded)) }, (_, i) => i)), missing],
      );
      giveJobsInvoices(store);
    });
    if (cache) writeFileSync(cache, store.exportDatabase());
  }
  const jobs = store.get<{ n: number }>('SELECT count(*) AS n FROM jobs')?.n ?? 0;
  const byStatus = store.all<{ status: string; n: number }>('SELECT status, count(*) AS n FROM jobs GROUP BY status ORDER BY status');
  const readyMs = performance.now() - started;

  const tz = 'Europe/Berlin';
  const url = `http://localhost/api/reports/summary?filterJson=${encodeURIComponent(JSON.stringify({ tz }))}`;
  const once = async () => {
    const t0 = performance.now();
    const response = await api.fetch(new Request(url));
    const body: unknown = await response.json();
    const ms = performance.now() - t0;
    if (response.status !== 200) throw new Error(`summary answered ${response.status}: ${JSON.stringify(body)}`);
    return { ms, body };
  };
  for (let i = 0; i < 3; i++) await once();
  const samples: number[] = [];
  let last: unknown;
  for (let i = 0; i < iterations; i++) {
    const { ms, body } = await once();
    samples.push(ms);
    last = body;
  }
  const summary = reportSummarySchema.parse(last);
  const stats = summarize(samples);
  const inBrowser = argv.includes('--chromium') ? await inChromium(store.exportDatabase(), new URL(url).pathname + new URL(url).search, iterations) : undefined;
  // The page must have answered from the restored database, not from the app's own 500 customers.
  if (inBrowser && inBrowser.owedJobs !== summary.owed.jobs) {
    throw new Error(`Chromium counted ${inBrowser.owedJobs} owed jobs, Node ${summary.owed.jobs}: the restore did not take.`);
  }
  const chromium = inBrowser?.ms;
  const loadAtEnd = load();
  const machine = {
    date,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${osType()} ${release()}`,
    node: process.version,
    load: { start: loadAtStart, end: loadAtEnd },
  };
  const result = {
    what: 'GET /api/reports/summary (tz Europe/Berlin, 12 months, this week) through createMockApi().fetch, SQLite WASM in memory, Node',
    machine,
    customers,
    jobs,
    jobsByStatus: Object.fromEntries(byStatus.map((r) => [r.status, r.n])),
    readySeconds: Math.round(readyMs / 100) / 10,
    iterations,
    ms: stats,
    ...(chromium ? { chromium: { what: 'the same call from the page in Chromium, production build, OPFS: fetch → service worker → DB worker → response.json()', ms: chromium } } : {}),
    answer: {
      paidJobsIn12Months: summary.paid_per_month.reduce((n, m) => n + m.jobs, 0),
      owedJobs: summary.owed.jobs,
      weekJobs: summary.week.days.reduce((n, d) => n + d.total, 0),
      newCustomersIn12Months: summary.new_customers_per_month.reduce((n, m) => n + m.customers, 0),
    },
  };
  console.log(`Summary report in Node ${process.version}, SQLite WASM in memory: ${customers.toLocaleString('en')} customers, ${jobs.toLocaleString('en')} jobs (ready in ${result.readySeconds} s).`);
  console.log(`Jobs by status: ${JSON.stringify(result.jobsByStatus)}; the answer counted ${JSON.stringify(result.answer)}.`);
  console.log(`| call | runs | median | p95 | min | max |\n| --- | --- | --- | --- | --- | --- |`);
  console.log(`| GET /api/reports/summary | ${stats.runs} | ${stats.median.toFixed(2)} | ${stats.p95.toFixed(2)} | ${stats.min.toFixed(2)} | ${stats.max.toFixed(2)} |`);
  if (chromium) {
    console.log(`| the same from the page in Chromium (OPFS, whole path) | ${chromium.runs} | ${chromium.median.toFixed(2)} | ${chromium.p95.toFixed(2)} | ${chromium.min.toFixed(2)} | ${chromium.max.toFixed(2)} |`);
  }
  console.log(`Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB; 1-minute load ${loadAtStart} at start, ${loadAtEnd} at end.`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`Written to ${out}`);
  await api.close();
}
