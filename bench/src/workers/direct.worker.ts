// The "inside the DB worker" figure: the same mock backend (createMockApi on an OPFS store, as
// serveMockApiInWorker opens it) answering api.fetch(Request) in a loop, with no relay at all.
// It also seeds the database the path page then serves, and times the seeding.
import { checkBackup, createMockApi, exportSeedDatabase, importSeedData, toFtsQuery, type MockApi, type SeedData } from '@otto/mock-backend';
import { createSqliteStore, type SqliteStore } from '@otto/sqlite-store';
import type { BulkLoadTiming, DirectResult, DirectRun, DirectWorkerMessage, DirectWorkerReply, QueryPlan, SeedTiming } from '../shared/messages';
import { jobSearchTerm, makeMoveJobs, runLoops, type BenchRequest, type JobContext, type SearchTerms } from '../shared/ops';

interface WorkerSelf {
  postMessage(message: DirectWorkerReply): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<DirectWorkerMessage>) => void): void;
  crossOriginIsolated: boolean;
  location: Location;
}
declare const self: WorkerSelf;

const quiet = { debug() {}, info() {}, warn: console.warn, error: console.error };
// The same file serveMockApiInWorker opens by default, so the path page finds these customers.
const storeOptions = { storage: 'opfs', filename: 'otto.sqlite3', opfsDirectory: '.otto', logger: quiet } as const;

async function seedOnce(run: DirectRun, filename: string): Promise<{ api: MockApi; store: SqliteStore; timing: SeedTiming }> {
  const started = performance.now();
  const store = createSqliteStore({ ...storeOptions, filename });
  const info = await store.open();
  const opened = performance.now();
  if (info.mode !== 'opfs') throw new Error(`The bench database is not on OPFS (${info.mode}: ${info.fallbackReason ?? 'no reason given'}).`);
  let seeding = true;
  const api = await createMockApi({
    store,
    logger: quiet,
    seed: { count: run.n, jobs: true, fakerSeed: run.fakerSeed },
    now: () => (seeding ? run.seedNow : Date.now()),
  });
  seeding = false;
  const done = performance.now();
  if (api.info.seeded.customers !== run.n) {
    throw new Error(`Expected an empty database to seed ${run.n} customers; seeded ${api.info.seeded.customers}.`);
  }
  return { api, store, timing: { open: opened - started, migrateAndSeed: done - opened, total: done - started } };
}

function count(store: SqliteStore, text: string): number {
  const match = toFtsQuery(text);
  return store.get<{ n: number }>('SELECT count(*) AS n FROM customers_fts WHERE customers_fts MATCH ?', [match])?.n ?? 0;
}

/** A word of the data that few customers have: the rarest words (a name with digits, from an email address, mostly). */
function pickRareWord(store: SqliteStore): string {
  store.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.bench_vocab USING fts5vocab(main, customers_fts, row)');
  const candidates = store.all<{ term: string }>(
    `SELECT term FROM temp.bench_vocab
     WHERE length(term) >= 6 AND term GLOB '[a-z][a-z][a-z][a-z]*'
       AND doc = (SELECT min(doc) FROM temp.bench_vocab WHERE length(term) >= 6 AND term GLOB '[a-z][a-z][a-z][a-z]*')
     ORDER BY term`,
  );
  const chosen = candidates[Math.floor(candidates.length / 2)]?.term;
  if (!chosen) throw new Error('No rare word found in the data.');
  return chosen;
}

function queryPlans(store: SqliteStore, terms: SearchTerms, n: number): QueryPlan[] {
  const columns = 'c.id, c.full_name, c.phone, c.email, c.created_dt, c.modified_dt';
  // The statements of customer-repository.ts, for the record.
  const statements: Omit<QueryPlan, 'plan'>[] = [
    { label: 'list count', sql: 'SELECT count(*) AS n FROM customers' },
    {
      label: 'list page (last page)',
      sql: `SELECT ${columns} FROM customers c WHERE c.id IN (SELECT id FROM customers ORDER BY modified_dt DESC, id DESC LIMIT 10 OFFSET ${n - 10}) ORDER BY c.modified_dt DESC, c.id DESC`,
    },
    { label: 'search count', sql: `SELECT count(*) AS n FROM customers_fts WHERE customers_fts MATCH ?` },
    {
      label: 'search page, ranked (1 000 matches or fewer)',
      sql: `SELECT ${columns} FROM customers_fts f JOIN customers c ON c.id = f.rowid WHERE customers_fts MATCH ? ORDER BY f.rank, c.modified_dt DESC, c.id DESC LIMIT 10 OFFSET 0`,
    },
    {
      label: 'search page, newest first (more than 1 000 matches)',
      sql: `SELECT ${columns} FROM customers_fts f JOIN customers c ON c.id = f.rowid WHERE customers_fts MATCH ? ORDER BY f.rowid DESC LIMIT 10 OFFSET 0`,
    },
    { label: 'update', sql: 'UPDATE customers SET full_name = ?, email = ?, phone = ?, modified_dt = ? WHERE id = ?' },
  ];
  return statements.map(({ label, sql }) => {
    const params = sql.includes('MATCH') ? [toFtsQuery(terms.common)] : sql.startsWith('UPDATE') ? ['a', 'b', 'c', 1, 1] : [];
    const rows = store.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params);
    return { label, sql, plan: rows.map((r) => r.detail) };
  });
}

async function run(config: DirectRun): Promise<DirectResult> {
  if (config.seedRuns < 1) throw new Error('seedRuns must be at least 1.');
  // Repeated seedings go to a scratch file (same sahpool: one per thread), each deleted after; the
  // last one seeds the database the loops and the path page use, which has seen nothing else.
  const seeds: SeedTiming[] = [];
  for (let k = 1; k < config.seedRuns; k++) {
    const scratch = await seedOnce(config, 'bench-seed.sqlite3');
    seeds.push(scratch.timing);
    await scratch.api.close();
    await scratch.store.deleteDatabase();
  }
  const { api, store, timing } = await seedOnce(config, storeOptions.filename);
  seeds.push(timing);
  if (config.pragmas) store.exec(config.pragmas);

  const terms: SearchTerms = { ...config.terms, rare: config.terms.rare ?? pickRareWord(store) };
  const matches = { common: count(store, terms.common), rare: count(store, terms.rare), prefix: count(store, terms.prefix) };
  const plans = queryPlans(store, terms, config.n);

  const origin = self.location.origin;
  const send = (request: BenchRequest) =>
    api.fetch(
      new Request(origin + request.path, {
        method: request.method,
        ...(request.body ? { body: request.body, headers: { 'content-type': 'application/json' } } : {}),
      }),
    );
  const jobs: JobContext = { count: api.info.seeded.jobs, term: jobSearchTerm, moveIds: await makeMoveJobs(send, 16) };
  const jobMatches = store.get<{ n: number }>('SELECT count(*) AS n FROM jobs_fts WHERE jobs_fts MATCH ?', [toFtsQuery(jobSearchTerm)])?.n ?? 0;
  const samples = await runLoops({ ...config.plan, ctx: { n: config.n, terms, jobs } }, async (request) => {
    const response = await send(request);
    await response.json();
    return response;
  });

  const { info } = api;
  await api.close();
  await store.close();
  const bulkLoad = config.bulkLoad ? await timeBulkLoad(config.n) : undefined;
  return {
    ...(bulkLoad ? { bulkLoad } : {}),
    storage: `${info.mode} (journal: ${info.journalMode})`,
    sqliteVersion: info.sqliteVersion,
    seeds,
    terms,
    matches,
    jobs,
    jobMatches,
    samples,
    plans,
    crossOriginIsolated: self.crossOriginIsolated,
  };
}

/** Jobs per customer, in turn: 1.7 on average, as the seeded data has. */
const jobsPerCustomer = [1, 2, 1, 3, 2, 1, 2, 0, 3, 2];
const jobTitles = ['Boiler service', 'Gutter cleaning', 'Fence repair', 'Window cleaning', 'Deck staining'];
const jobStatuses = ['quote', 'scheduled', 'completed', 'invoiced', 'paid', 'cancelled'] as const;

/**
 * n customers and their jobs made up without faker, loaded into a fresh scratch database as seed
 * data (`importSeedData`, the path of fixtures and first-start data: indexes and triggers set aside
 * while the rows go in, their work done set-based), in one transaction. Times the load alone.
 */
async function timeBulkLoad(n: number): Promise<BulkLoadTiming> {
  const store = createSqliteStore({ ...storeOptions, filename: 'bench-bulk.sqlite3' });
  await store.open();
  const api = await createMockApi({ store, logger: quiet, seed: false });
  const now = Date.now();
  const day = 86_400_000;
  const customers: (string | number)[][] = [];
  const jobs: (string | number | null)[][] = [];
  for (let i = 1; i <= n; i++) {
    const created = now - (i % 1000) * day;
    customers.push([i, `Customer${i} Family${i % 997}`, `555-${String(i).padStart(7, '0')}`, `customer${i}.family${i % 997}@example.com`, created, created]);
    for (let k = 0; k < jobsPerCustomer[i % jobsPerCustomer.length]!; k++) {
      const status = jobStatuses[(i + k) % jobStatuses.length]!;
      const at = created + k * day;
      // Each status's own date, and the quote's (a job reached its status when it was made).
      const reached = jobStatuses.map((s) => (s === status || s === 'quote' ? at : null));
      jobs.push([i, jobTitles[(i + k) % jobTitles.length]!, '', '', status, (i % 97) * 500, at, at, ...reached]);
    }
  }
  const data: SeedData = {
    format: 'otto-seed',
    version: 1,
    generatedAt: now,
    customers: { columns: ['id', 'full_name', 'phone', 'email', 'created_dt', 'modified_dt'], rows: customers },
    jobs: {
      columns: ['customer_id', 'title', 'description', 'service_address', 'status', 'price_cents', 'created_dt', 'modified_dt', ...jobStatuses.map((s) => `${s}_dt`)],
      rows: jobs,
    },
  };
  const started = performance.now();
  store.transaction(() => importSeedData(store, data, now));
  const ms = performance.now() - started;
  // The same database as a first-start file (made once, ahead of time, as a build would), then a
  // new database made from it: put in OPFS, dates moved to now, and the first list answered.
  let fileStarted = performance.now();
  const file = exportSeedDatabase(store, now, { compact: false });
  const makeFileMs = performance.now() - fileStarted;
  await api.close();
  await store.deleteDatabase();
  const target = createSqliteStore({ ...storeOptions, filename: 'bench-file.sqlite3' });
  fileStarted = performance.now();
  let fileLoadMs: number;
  let backupRestore: BulkLoadTiming['backupRestore'];
  try {
    await target.open();
    const fromFile = await createMockApi({ store: target, logger: quiet, seed: { file } });
    const first = await fromFile.fetch(new Request('http://localhost/api/customers'));
    const total = Number(first.headers.get('x-total-count'));
    await first.json();
    fileLoadMs = performance.now() - fileStarted;
    if (total !== n) throw new Error(`The database made from the file lists ${total} customers, not ${n}.`);
    backupRestore = await timeBackupRestore(fromFile, target, n);
  } finally {
    // The scratch file goes whatever happened: the next run starts without it.
    await target.deleteDatabase().catch(() => undefined);
  }
  return { rows: n, jobs: jobs.length, ms, file: { bytes: file.byteLength, makeMs: makeFileMs, loadMs: fileLoadMs }, ...(backupRestore ? { backupRestore } : {}) };
}

/** A backup of the database behind `api`, then that backup restored into it the way the DB worker restores one (closes `api`). */
async function timeBackupRestore(api: MockApi, store: SqliteStore, n: number): Promise<NonNullable<BulkLoadTiming['backupRestore']>> {
  let started = performance.now();
  const backup = new Blob([store.exportDatabase() as Uint8Array<ArrayBuffer>]);
  const backupMs = performance.now() - started;
  started = performance.now();
  const summary = await checkBackup(backup);
  const checkMs = performance.now() - started;
  started = performance.now();
  await api.close();
  await store.replaceDatabase!(backup);
  const restored = await createMockApi({ store, logger: quiet, seed: false });
  const res = await restored.fetch(new Request('http://localhost/api/customers'));
  const customers = Number(res.headers.get('x-total-count'));
  await res.json();
  const replaceMs = performance.now() - started;
  await restored.close();
  if (summary.customers !== n || customers !== n) throw new Error(`The restored backup holds ${summary.customers} customers and lists ${customers}, not ${n}.`);
  return { backupMs, bytes: backup.size, checkMs, replaceMs, customers };
}

self.addEventListener('message', (event) => {
  if (event.data?.type !== 'run') return;
  run(event.data.run).then(
    (result) => self.postMessage({ type: 'done', result }),
    (error: unknown) => self.postMessage({ type: 'failed', message: error instanceof Error ? `${error.message}\n${error.stack}` : String(error) }),
  );
});
