// `pnpm --filter @otto/bench run team-load [--seconds=60] [--connections=100] [--pool-size=20]
// [--skip-kill]`: the team issue's load run. autocannon (decision 0114) drives `connections` HTTP/1.1
// keep-alive connections over loopback, each sending its next request as soon as the last answered,
// for `seconds`, against otto-mock-server processes spawned from packages/mock-backend/bin (build
// @otto/mock-backend first), each seeded with 1000 customers:
//  1. one server on a SQLite file in a temporary directory;
//  2. two servers on one throwaway PostgreSQL (@otto/postgres-testing, the tests' harness), the
//     connections split between them;
//  3. (PostgreSQL only) the same as 2, with a fresh pair of servers, and one of them SIGKILLed half
//     way: the requests that were in flight on it are sent again, with the same x-otto-request-id,
//     to the other one; its connections move to the other one for the rest of the run.
//
// The mix, drawn at random for every request (weights in `mix`):
//   reads  70%: customer list page (20), customer search for a common name (20), job list page
//               (15), one customer by id (15);
//   writes 30%: create customer (8), update customer (PUT, 8), create job (7), job status move (7).
// Every write carries a unique x-otto-request-id. Updates and moves act only on customers and jobs
// this run created, one request at a time per record (a record is checked out while a write on it
// is in flight), and moves walk the lifecycle forward (quote → scheduled → in_progress → completed
// → invoiced → paid), so no answer but a 2xx is expected. Every write answered 2xx is recorded with
// what it answered; afterwards each created customer and job is read back (GET by id: present, with
// the last acknowledged name or status), and the run's customers and jobs are listed by the run's
// marker word to find any created twice.
//
// Writes a JSON report to bench/results/runs/<date>-team-load.json (ignored by git) and prints a table side by side.
import { freePort, startTestPostgres } from '@otto/postgres-testing';
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentLoad, describeMachine } from './machine';

const resultsDir = fileURLToPath(new URL('../../results/runs/', import.meta.url));
const serverBin = fileURLToPath(new URL('../../../packages/mock-backend/bin/otto-mock-server.js', import.meta.url));

type Kind =
  | 'customer-list'
  | 'customer-search'
  | 'job-list'
  | 'customer-get'
  | 'customer-create'
  | 'customer-update'
  | 'job-create'
  | 'job-move';

/** The mix: weights out of 100. */
const mix: readonly (readonly [Kind, number])[] = [
  ['customer-list', 20],
  ['customer-search', 20],
  ['job-list', 15],
  ['customer-get', 15],
  ['customer-create', 8],
  ['customer-update', 8],
  ['job-create', 7],
  ['job-move', 7],
];
const kinds = mix.map(([k]) => k);
const writeKinds = new Set<Kind>(['customer-create', 'customer-update', 'job-create', 'job-move']);
const searchWords = ['john', 'white', 'parker', 'lee', 'smith'];
const nextStatus: Record<string, string | undefined> = {
  quote: 'scheduled',
  scheduled: 'in_progress',
  in_progress: 'completed',
  completed: 'invoiced',
  invoiced: 'paid',
};

interface Server {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  stderr: string;
}

/** One request of the mix, from when it was built to its answer. */
interface Op {
  kind: Kind;
  target: number;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
  requestId?: string;
  started: number;
  /** The customer or job the write acts on (checked out until answered). */
  record?: string;
  /** What the record holds once this write is applied: a customer's name, a job's status. */
  expect?: string;
  /** Create seq (the c<n> in a customer's name, the j<n> in a job's title). */
  n?: number;
}

interface KindFigures {
  count: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return Math.round((sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number) * 100) / 100;
}

/** The state of one phase's load: what was sent, answered and acknowledged. */
class LoadRun {
  readonly marker = `tl${randomBytes(4).toString('hex').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)] as string)}`;
  private seq = 0;
  readonly latencies = new Map<Kind, number[]>(kinds.map((k) => [k, []]));
  readonly statuses = new Map<Kind, Record<string, number>>(kinds.map((k) => [k, {}]));
  readonly pending = new Map<number, Op>();
  private opSeq = 0;
  readonly dead = new Set<number>();
  /** Created by this run and acknowledged: id → the name (customers) or status (jobs) last acknowledged. */
  readonly customers = new Map<string, { n: number; name: string; alsoOk?: string }>();
  readonly jobs = new Map<string, { n: number; status: string; alsoOk?: string }>();
  private readonly freeCustomers: string[] = [];
  private readonly freeJobs: string[] = [];
  readonly acked: Record<string, number> = {};
  readonly failures: { kind: Kind; status: number; body: string }[] = [];

  constructor(
    private readonly seededIds: readonly string[],
    private readonly targets: readonly Server[],
  ) {}

  private draw(): Kind {
    let r = Math.random() * 100;
    for (const [kind, weight] of mix) {
      if ((r -= weight) < 0) return kind;
    }
    return 'customer-list';
  }

  private takeRandom(list: string[]): string | undefined {
    if (list.length === 0) return undefined;
    const i = Math.floor(Math.random() * list.length);
    const [taken] = list.splice(i, 1);
    return taken;
  }

  /** Builds the next request for a connection to `target`. */
  build(target: number): Op {
    const started = performance.now();
    const seeded = this.seededIds[Math.floor(Math.random() * this.seededIds.length)] as string;
    const filter = (f: object) => `filterJson=${encodeURIComponent(JSON.stringify(f))}`;
    if (this.dead.has(target)) {
      // The process is gone: what its connections still build is never answered; not counted.
      return { kind: 'customer-get', target: -1, method: 'GET', path: `/api/customers/${seeded}`, started };
    }
    let kind = this.draw();
    const id = () => `${this.marker}-${++this.seq}`;
    const n = this.seq + 1;
    if (kind === 'customer-update') {
      const record = this.takeRandom(this.freeCustomers);
      if (record) {
        const c = this.customers.get(record);
        const name = `${this.marker} c${c?.n} u${n}`;
        const body = JSON.stringify({ full_name: name, email: `c${c?.n}@${this.marker}.example`, phone: `+1 555 ${String(n).padStart(7, '0')}` });
        return { kind, target, method: 'PUT', path: `/api/customers/${record}`, body, requestId: id(), started, record, expect: name };
      }
      kind = 'customer-create';
    }
    if (kind === 'job-move') {
      const record = this.takeRandom(this.freeJobs);
      if (record) {
        const status = nextStatus[this.jobs.get(record)?.status ?? ''] ?? 'paid';
        const move = status === 'scheduled' ? { status, scheduled_start_dt: Date.now() + 86_400_000 } : { status };
        return { kind, target, method: 'POST', path: `/api/jobs/${record}/move`, body: JSON.stringify(move), requestId: id(), started, record, expect: status };
      }
      kind = 'job-create';
    }
    switch (kind) {
      case 'customer-list':
        return { kind, target, method: 'GET', path: `/api/customers?${filter({ offset: 20 * Math.floor(Math.random() * 5), limit: 20 })}`, started };
      case 'customer-search': {
        const word = searchWords[Math.floor(Math.random() * searchWords.length)];
        return { kind, target, method: 'GET', path: `/api/customers?${filter({ queryText: word, limit: 20 })}`, started };
      }
      case 'job-list':
        return { kind, target, method: 'GET', path: `/api/jobs?${filter({ offset: 20 * Math.floor(Math.random() * 5), limit: 20 })}`, started };
      case 'customer-get':
        return { kind, target, method: 'GET', path: `/api/customers/${seeded}`, started };
      case 'customer-create': {
        const name = `${this.marker} c${n}`;
        const body = JSON.stringify({ full_name: name, email: `c${n}@${this.marker}.example`, phone: `+1 555 ${String(n).padStart(7, '0')}` });
        return { kind, target, method: 'POST', path: '/api/customers', body, requestId: id(), started, expect: name, n };
      }
      default: {
        const body = JSON.stringify({ customer_id: seeded, title: `${this.marker} j${n} Boiler service`, price_cents: 12_500 });
        return { kind: 'job-create', target, method: 'POST', path: '/api/jobs', body, requestId: id(), started, expect: 'quote', n };
      }
    }
  }

  /** Registers a request about to be sent; the key goes into the connection's context. */
  register(op: Op): number {
    const key = ++this.opSeq;
    if (op.target >= 0) this.pending.set(key, op);
    return key;
  }

  /** Records an answer: latency, status, and for a 2xx write what it acknowledged. */
  answer(key: number, status: number, body: string): void {
    const op = this.pending.get(key);
    if (!op) return;
    this.pending.delete(key);
    this.latencies.get(op.kind)?.push(performance.now() - op.started);
    const counts = this.statuses.get(op.kind) as Record<string, number>;
    counts[status] = (counts[status] ?? 0) + 1;
    this.settle(op, status, body);
  }

  /** Applies a write's answer to what the run expects in the database, and frees its record. */
  settle(op: Op, status: number, body: string): void {
    const ok = status >= 200 && status < 300;
    if (!ok && this.failures.length < 20) this.failures.push({ kind: op.kind, status, body: body.slice(0, 300) });
    if (!writeKinds.has(op.kind)) return;
    if (ok) this.acked[op.kind] = (this.acked[op.kind] ?? 0) + 1;
    if (op.kind === 'customer-create' && ok) {
      const created = JSON.parse(body) as { id: string };
      this.customers.set(created.id, { n: op.n as number, name: op.expect as string });
      this.freeCustomers.push(created.id);
    } else if (op.kind === 'job-create' && ok) {
      const created = JSON.parse(body) as { id: string };
      this.jobs.set(created.id, { n: op.n as number, status: 'quote' });
      this.freeJobs.push(created.id);
    } else if (op.kind === 'customer-update' && op.record) {
      const c = this.customers.get(op.record);
      if (c && ok) c.name = op.expect as string;
      this.freeCustomers.push(op.record);
    } else if (op.kind === 'job-move' && op.record) {
      const j = this.jobs.get(op.record);
      if (j && ok) j.status = op.expect as string;
      if (j?.status !== 'paid') this.freeJobs.push(op.record);
    }
  }

  /**
   * Writes never answered (cut when the run stopped): they may or may not have been applied, so
   * their record may hold either value.
   */
  allowUnanswered(): { byKind: Record<string, number> } {
    const byKind: Record<string, number> = {};
    for (const op of this.pending.values()) {
      byKind[op.kind] = (byKind[op.kind] ?? 0) + 1;
      if (op.kind === 'customer-update' && op.record) {
        const c = this.customers.get(op.record);
        if (c) c.alsoOk = op.expect;
      } else if (op.kind === 'job-move' && op.record) {
        const j = this.jobs.get(op.record);
        if (j) j.alsoOk = op.expect;
      }
    }
    return { byKind };
  }

  /** One autocannon run of `connections` against target `t` (its URL), for `seconds`. */
  fire(t: number, connections: number, seconds: number, via = t): { instance: autocannon.Instance; done: Promise<autocannon.Result> } {
    const server = this.targets[via] as Server;
    let instance!: autocannon.Instance;
    const done = new Promise<autocannon.Result>((resolve, reject) => {
      instance = autocannon(
        {
          url: `http://127.0.0.1:${server.port}`,
          connections,
          duration: seconds,
          timeout: 30,
          requests: [
            {
              setupRequest: (request, context) => {
                const op = this.build(t);
                (context as { key?: number }).key = this.register(op);
                return {
                  ...request,
                  method: op.method,
                  path: op.path,
                  headers: {
                    ...(op.body ? { 'content-type': 'application/json' } : {}),
                    ...(op.requestId ? { 'x-otto-request-id': op.requestId } : {}),
                  },
                  ...(op.body ? { body: op.body } : {}),
                };
              },
              onResponse: (status, body, context) => {
                const key = (context as { key?: number }).key;
                if (key !== undefined) this.answer(key, status, body);
              },
            },
          ],
        },
        (error, result) => (error ? reject(error as Error) : resolve(result)),
      );
    });
    return { instance, done };
  }

  figures(seconds: number) {
    const all: number[] = [];
    const perKind: Record<string, KindFigures> = {};
    const non2xx: Record<string, number> = {};
    for (const kind of kinds) {
      const values = [...(this.latencies.get(kind) ?? [])].sort((a, b) => a - b);
      all.push(...values);
      const statuses = this.statuses.get(kind) ?? {};
      for (const [status, count] of Object.entries(statuses)) {
        if (!status.startsWith('2')) non2xx[status] = (non2xx[status] ?? 0) + count;
      }
      perKind[kind] = { count: values.length, p50: percentile(values, 50), p99: percentile(values, 99), statuses };
    }
    all.sort((a, b) => a - b);
    return {
      requests: all.length,
      throughput: Math.round(all.length / seconds),
      p50: percentile(all, 50),
      p99: percentile(all, 99),
      perKind,
      non2xx,
      acked: this.acked,
    };
  }
}

/** Spawns otto-mock-server and waits until it says it listens. */
async function startServer(db: string, poolSize: number): Promise<Server> {
  const port = await freePort();
  const args = [serverBin, '--db', db, '--port', String(port), '--quiet', '--seed', '1000'];
  if (db.startsWith('postgres')) args.push('--pool-size', String(poolSize));
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const server: Server = { url: `http://127.0.0.1:${port}/api`, port, child, stderr: '' };
  child.stderr?.on('data', (chunk: Buffer) => (server.stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`otto-mock-server did not start in 60 s:\n${out}${server.stderr}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`otto-mock-server exited (${code}) before listening:\n${out}${server.stderr}`));
    });
  });
  child.stdout?.resume();
  return server;
}

async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

async function getJson<T>(url: string): Promise<{ status: number; body: T; total: number }> {
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, body: (res.ok ? JSON.parse(text) : text) as T, total: Number(res.headers.get('x-total-count') ?? NaN) };
}

async function inBatches<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

/** Every acknowledged write present; nothing created twice. */
async function verify(run: LoadRun, base: string) {
  const problems: string[] = [];
  let lost = 0;
  let wrong = 0;
  await inBatches([...run.customers], 16, async ([id, c]) => {
    const got = await getJson<{ full_name: string }>(`${base}/customers/${id}`);
    if (got.status !== 200) {
      lost++;
      problems.push(`customer ${id} (c${c.n}): GET answered ${got.status}`);
    } else if (got.body.full_name !== c.name && got.body.full_name !== c.alsoOk) {
      wrong++;
      problems.push(`customer ${id}: name ${JSON.stringify(got.body.full_name)}, last acknowledged ${JSON.stringify(c.name)}`);
    }
  });
  await inBatches([...run.jobs], 16, async ([id, j]) => {
    const got = await getJson<{ status: string }>(`${base}/jobs/${id}`);
    if (got.status !== 200) {
      lost++;
      problems.push(`job ${id} (j${j.n}): GET answered ${got.status}`);
    } else if (got.body.status !== j.status && got.body.status !== j.alsoOk) {
      wrong++;
      problems.push(`job ${id}: status ${got.body.status}, last acknowledged ${j.status}`);
    }
  });
  // Everything the run created, by its marker word: a create applied twice shows as two rows with
  // the same c<n> / j<n>.
  const listAll = async (entity: 'customers' | 'jobs', sortBy: string, field: string, tag: RegExp) => {
    const seen = new Map<string, number>();
    for (let offset = 0; ; offset += 1000) {
      const f = encodeURIComponent(JSON.stringify({ queryText: run.marker, sortBy, offset, limit: 1000 }));
      const page = await getJson<Record<string, string>[]>(`${base}/${entity}?filterJson=${f}`);
      if (page.status !== 200) throw new Error(`listing ${entity} by marker: ${page.status} ${String(page.body)}`);
      for (const row of page.body) {
        const n = tag.exec(row[field] ?? '')?.[1] ?? '?';
        seen.set(n, (seen.get(n) ?? 0) + 1);
      }
      if (page.body.length < 1000) break;
    }
    const twice = [...seen].filter(([, count]) => count > 1).map(([n]) => n);
    return { rows: [...seen.values()].reduce((a, b) => a + b, 0), twice };
  };
  const customerRows = await listAll('customers', 'full_name', 'full_name', / c(\d+)/);
  const jobRows = await listAll('jobs', 'title', 'title', / j(\d+)/);
  for (const n of customerRows.twice) problems.push(`customer c${n} created more than once`);
  for (const n of jobRows.twice) problems.push(`job j${n} created more than once`);
  return {
    checked: { customers: run.customers.size, jobs: run.jobs.size },
    lost,
    wrongValue: wrong,
    duplicates: customerRows.twice.length + jobRows.twice.length,
    rowsWithMarker: { customers: customerRows.rows, jobs: jobRows.rows },
    problems: problems.slice(0, 20),
  };
}

async function seededIds(base: string): Promise<string[]> {
  const page = await getJson<{ id: string }[]>(`${base}/customers?filterJson=${encodeURIComponent(JSON.stringify({ limit: 1000 }))}`);
  if (page.status !== 200 || page.body.length === 0) throw new Error(`no seeded customers: ${page.status}`);
  return page.body.map((c) => c.id);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The load of one phase without a kill: `connections` split over the servers. */
async function plainPhase(name: string, servers: Server[], seconds: number, connections: number) {
  const run = new LoadRun(await seededIds(servers[0]?.url as string), servers);
  const shares = servers.map((_, i) => Math.floor(connections / servers.length) + (i < connections % servers.length ? 1 : 0));
  const results = await Promise.all(shares.map((c, i) => run.fire(i, c, seconds).done));
  const unanswered = run.allowUnanswered();
  const figures = run.figures(seconds);
  const verification = await verify(run, servers[0]?.url as string);
  return {
    name,
    marker: run.marker,
    seconds,
    connections,
    ...figures,
    socketErrors: results.reduce((a, r) => a + r.errors, 0),
    timeouts: results.reduce((a, r) => a + r.timeouts, 0),
    unansweredAtStop: unanswered.byKind,
    failures: run.failures,
    verification,
    serverStderr: servers.map((s) => s.stderr.slice(-2000)),
  };
}

/** Two servers under load; the first SIGKILLed half way, its in-flight writes retried on the second. */
async function killPhase(servers: [Server, Server], seconds: number, connections: number) {
  const run = new LoadRun(await seededIds(servers[1].url), servers);
  const half = Math.floor(connections / 2);
  const started = performance.now();
  const a = run.fire(0, half, seconds);
  const b = run.fire(1, connections - half, seconds);
  await sleep((seconds * 1000) / 2);
  run.dead.add(0);
  const exited = new Promise((resolve) => servers[0].child.once('exit', resolve));
  servers[0].child.kill('SIGKILL');
  await exited;
  await sleep(20); // answers already in the sockets' buffers are read
  a.instance.stop();
  const inFlight = [...run.pending].filter(([, op]) => op.target === 0);
  const retried: Record<string, number> = {};
  const retryStatuses: Record<string, number> = {};
  // Sent again at once, as a client does after a dropped connection, the same request under the
  // same id: the request log keeps its answer for 24 hours (decision 0121).
  await Promise.all(
    inFlight.map(async ([key, op]) => {
      run.pending.delete(key);
      retried[op.kind] = (retried[op.kind] ?? 0) + 1;
      const res = await fetch(`${servers[1].url.replace(/\/api$/, '')}${op.path}`, {
        method: op.method,
        headers: { ...(op.body ? { 'content-type': 'application/json' } : {}), ...(op.requestId ? { 'x-otto-request-id': op.requestId } : {}) },
        ...(op.body ? { body: op.body } : {}),
      });
      const text = await res.text();
      retryStatuses[res.status] = (retryStatuses[res.status] ?? 0) + 1;
      run.settle({ ...op }, res.status, text);
    }),
  );
  const aResult = await a.done;
  const remaining = Math.max(1, Math.round(seconds - (performance.now() - started) / 1000));
  run.dead.delete(0); // target 0's share of the connections now goes to server 1
  const moved = run.fire(0, half, remaining, 1);
  const results = [aResult, await b.done, await moved.done];
  const unanswered = run.allowUnanswered();
  const figures = run.figures(seconds);
  const verification = await verify(run, servers[1].url);
  return {
    name: 'PostgreSQL ×2, one SIGKILLed',
    marker: run.marker,
    seconds,
    connections,
    ...figures,
    killedAfterSeconds: seconds / 2,
    killed: {
      inFlightRetried: retried,
      retryStatuses,
      socketErrorsOnKilled: aResult.errors,
      note: 'requests in flight on the killed process saw their connection drop; each was sent again, same request id, to the other process',
    },
    socketErrors: results.reduce((a2, r) => a2 + r.errors, 0) - aResult.errors,
    timeouts: results.reduce((a2, r) => a2 + r.timeouts, 0),
    unansweredAtStop: unanswered.byKind,
    failures: run.failures,
    verification,
    serverStderr: servers.map((s) => s.stderr.slice(-2000)),
  };
}

type Phase = Awaited<ReturnType<typeof plainPhase>>;

function table(phases: Phase[]): string {
  const rows: [string, ...string[]][] = [['', ...phases.map((p) => p.name)]];
  const add = (label: string, f: (p: Phase) => string) => rows.push([label, ...phases.map(f)]);
  add('requests/s', (p) => String(p.throughput));
  add('requests', (p) => String(p.requests));
  add('p50 / p99 ms (all)', (p) => `${p.p50} / ${p.p99}`);
  for (const kind of kinds) add(`  ${kind}`, (p) => `${p.perKind[kind]?.p50} / ${p.perKind[kind]?.p99} (${p.perKind[kind]?.count})`);
  add('non-2xx', (p) => JSON.stringify(p.non2xx));
  add('socket errors / timeouts', (p) => `${p.socketErrors} / ${p.timeouts}`);
  add('writes acknowledged', (p) => String(Object.values(p.acked).reduce((a, b) => a + b, 0)));
  add('lost / wrong / twice', (p) => `${p.verification.lost} / ${p.verification.wrongValue} / ${p.verification.duplicates}`);
  add('killed: in flight → retried', (p) => ('killed' in p ? `${JSON.stringify((p as { killed: { inFlightRetried: object } }).killed.inFlightRetried)}` : '–'));
  add('killed: retry statuses, socket errors', (p) => {
    if (!('killed' in p)) return '–';
    const k = (p as { killed: { retryStatuses: object; socketErrorsOnKilled: number } }).killed;
    return `${JSON.stringify(k.retryStatuses)}, ${k.socketErrorsOnKilled} socket errors`;
  });
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i] as number)).join(' | ')).join('\n');
}

export async function main(argv: readonly string[]): Promise<void> {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const seconds = Number(value('seconds') ?? 60);
  const connections = Number(value('connections') ?? 100);
  const poolSize = Number(value('pool-size') ?? 20);
  if (!existsSync(join(serverBin, '../../dist'))) throw new Error('build @otto/mock-backend first: pnpm turbo run build --filter=@otto/mock-backend');
  const machine = describeMachine('not used');
  console.log(`Team load run: ${connections} connections, ${seconds} s per target, loopback; ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}`);
  console.log(`${machine.date}, load average (1 min) at start: ${machine.load.start}`);
  const phases: Phase[] = [];
  const only = value('only')?.split(',') ?? ['sqlite', 'pg', 'kill'];
  if (argv.includes('--skip-kill')) only.splice(only.indexOf('kill'), 1);

  const dir = mkdtempSync(join(tmpdir(), 'otto-team-load-'));
  if (only.includes('sqlite')) try {
    const sqlite = await startServer(join(dir, 'otto.sqlite'), poolSize);
    try {
      phases.push(await plainPhase('SQLite file', [sqlite], seconds, connections));
    } finally {
      await stopServer(sqlite);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (only.includes('sqlite')) console.log(`SQLite file done: ${phases[0]?.throughput} requests/s`);

  // PostgreSQL as it runs for a team (its own durability settings, not the tests' fsync=off), with
  // room for both servers' pools.
  const pg = await startTestPostgres({ durable: true, settings: { max_connections: 200 }, dirPrefix: 'otto-team-load-pg-' });
  try {
    if (only.includes('pg')) {
      const first = await startServer(pg.connectionString, poolSize);
      const second = await startServer(pg.connectionString, poolSize);
      try {
        phases.push(await plainPhase('PostgreSQL ×2', [first, second], seconds, connections));
      } finally {
        await Promise.all([stopServer(first), stopServer(second)]);
      }
      console.log(`PostgreSQL ×2 done: ${phases.at(-1)?.throughput} requests/s`);
    }
    if (only.includes('kill')) {
      const victim = await startServer(pg.connectionString, poolSize);
      const survivor = await startServer(pg.connectionString, poolSize);
      try {
        phases.push(await killPhase([victim, survivor], seconds, connections));
      } finally {
        await Promise.all([stopServer(victim), stopServer(survivor)]);
      }
    }
  } finally {
    await pg.stop();
  }

  const loadAtEnd = currentLoad();
  console.log(`load average (1 min) at end: ${loadAtEnd}`);
  console.log(`\n${table(phases)}\n`);
  const clean = phases.every((p) => Object.keys(p.non2xx).length === 0 && p.verification.lost === 0 && p.verification.wrongValue === 0 && p.verification.duplicates === 0);
  for (const p of phases) {
    for (const problem of p.verification.problems) console.log(`${p.name}: ${problem}`);
    for (const f of p.failures.slice(0, 5)) console.log(`${p.name}: ${f.kind} answered ${f.status}: ${f.body}`);
    p.serverStderr.forEach((s, i) => s.trim() && console.log(`${p.name}, server ${i + 1} stderr:\n${s}`));
  }
  console.log(clean ? 'No errors; every acknowledged write present (lost: 0), none applied twice.' : 'FAILED: see above.');
  mkdirSync(resultsDir, { recursive: true });
  const report = join(resultsDir, `${machine.date.slice(0, 10)}-team-load.json`);
  writeFileSync(report, `${JSON.stringify({ machine: { ...machine, load: { ...machine.load, end: loadAtEnd } }, seconds, connections, poolSize, mix, phases, clean }, null, 2)}\n`);
  console.log(`Report: ${report}`);
  if (!clean) process.exitCode = 1;
}
