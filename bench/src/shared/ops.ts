// The operations every mode times, as plain request descriptions that the pages, the workers and
// the Node runner share. Ids and bodies vary per iteration so that no cache answers a repeat.

/** The customer operations of the request-path benchmark. */
export const customerOps = [
  'list-first',
  'list-deep',
  'search-common',
  'search-rare',
  'search-prefix',
  'get',
  'create',
  'update',
] as const;
export type CustomerOp = (typeof customerOps)[number];

/**
 * The job operations: what the Jobs screen asks for (the list, each status tab, the counts behind
 * the tabs, a search with its counts), opening a job, creating one, a status move, and what the
 * schedule asks for (this week's jobs with the lanes, the unscheduled list).
 */
export const jobOps = [
  'jobs-list',
  'jobs-tab-quote',
  'jobs-tab-scheduled',
  'jobs-tab-in_progress',
  'jobs-tab-completed',
  'jobs-tab-invoiced',
  'jobs-tab-paid',
  'jobs-tab-cancelled',
  'jobs-counts',
  'jobs-search',
  'jobs-search-counts',
  'jobs-get',
  'jobs-create',
  'jobs-move',
  'jobs-schedule-week',
  'jobs-unscheduled',
] as const;
export type JobOp = (typeof jobOps)[number];

/** Every operation the bench can time. */
export type BenchOp = CustomerOp | JobOp;
export const benchOps: readonly BenchOp[] = [...customerOps, ...jobOps];

/** The operations the MSW peer serves too: all of them. */
export const peerOps: readonly BenchOp[] = benchOps;

/** What job operations need to know about the database. */
export interface JobContext {
  /** Jobs in the database when the loops start (ids 1…count). */
  count: number;
  /** The search word of `jobs-search`. */
  term: string;
  /** Jobs made for `jobs-move` (each a quote when the loops start), moved quote ↔ cancelled in turn. */
  moveIds: readonly string[];
}

/** The word `jobs-search` looks for: a word of several service titles (about 1 job in 9). */
export const jobSearchTerm = 'repair';

/** The search words: a common one, a rare one, a 3-letter prefix. */
export interface SearchTerms {
  common: string;
  rare: string;
  prefix: string;
}

/** What a loop needs to build its requests. */
export interface OpContext {
  /** Customers in the database. */
  n: number;
  terms: SearchTerms;
  /** Needed by the job operations only. */
  jobs?: JobContext;
}

export interface BenchRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  /** Path and query below the origin, e.g. `/api/customers?filterJson=…`. */
  path: string;
  /** A JSON body, for POST and PUT. */
  body?: string;
}

const pageSize = 10;

function listPath(filter: { queryText?: string; limit: number; offset: number }): string {
  return `/api/customers?filterJson=${encodeURIComponent(JSON.stringify(filter))}`;
}

/** The customer list's first page as the app asks for it on /biz/customers (10 rows, its default order). */
export const firstListPage = listPath({ limit: pageSize, offset: 0 });

/** A customer id spread over 1…n, different for consecutive iterations. */
export function spreadId(i: number, n: number): number {
  return 1 + ((i * 7919 + 13) % n);
}

function jobsPath(filter: { queryText?: string; status?: string; limit?: number; offset?: number } | undefined, counts = false): string {
  const base = counts ? '/api/jobs/counts' : '/api/jobs';
  return filter ? `${base}?filterJson=${encodeURIComponent(JSON.stringify(filter))}` : base;
}

const dayMs = 86_400_000;

/** This week from its Monday in UTC, as the schedule's week view asks for it (six jobs per person per day). */
export function benchWeek(now = Date.now()): { tz: string; start: string; days: number; perCell: number } {
  const today = Math.floor(now / dayMs) * dayMs;
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * dayMs;
  return { tz: 'UTC', start: new Date(monday).toISOString().slice(0, 10), days: 7, perCell: 6 };
}

function jobRequest(op: JobOp, i: number, n: number, jobs: JobContext | undefined): BenchRequest {
  if (!jobs) throw new Error(`${op} needs the job context (OpContext.jobs).`);
  if (op.startsWith('jobs-tab-')) {
    return { method: 'GET', path: jobsPath({ status: op.slice('jobs-tab-'.length), limit: pageSize, offset: 0 }) };
  }
  switch (op) {
    case 'jobs-list':
      return { method: 'GET', path: jobsPath({ limit: pageSize, offset: 0 }) };
    case 'jobs-counts':
      return { method: 'GET', path: jobsPath(undefined, true) };
    case 'jobs-search':
      return { method: 'GET', path: jobsPath({ queryText: jobs.term, limit: pageSize, offset: 0 }) };
    case 'jobs-search-counts':
      return { method: 'GET', path: jobsPath({ queryText: jobs.term }, true) };
    case 'jobs-get':
      return { method: 'GET', path: `/api/jobs/${spreadId(i, jobs.count)}` };
    case 'jobs-create':
      return {
        method: 'POST',
        path: '/api/jobs',
        body: JSON.stringify({ customer_id: String(spreadId(i + 2, n)), title: `Bench job ${i}`, service_address: `${i} Bench Street`, price_cents: 1000 + i }),
      };
    case 'jobs-move': {
      const k = jobs.moveIds.length;
      if (k === 0) throw new Error('jobs-move needs jobs to move (OpContext.jobs.moveIds).');
      // Each job goes quote → cancelled, then back to quote on its next turn (both allowed moves).
      const id = jobs.moveIds[i % k] as string;
      return { method: 'PATCH', path: `/api/jobs/${id}`, body: JSON.stringify({ status: Math.floor(i / k) % 2 === 0 ? 'cancelled' : 'quote' }) };
    }
    case 'jobs-schedule-week':
      return { method: 'GET', path: `/api/jobs/schedule?filterJson=${encodeURIComponent(JSON.stringify(benchWeek()))}` };
    case 'jobs-unscheduled':
      return { method: 'GET', path: `/api/jobs?filterJson=${encodeURIComponent(JSON.stringify({ unscheduled: true, limit: 50 }))}` };
    default:
      throw new Error(`Unknown job operation ${op}.`);
  }
}

/**
 * The request of iteration `i` of `op`.
 * @example
 * requestFor('search-prefix', 0, { n: 500, terms }); // GET /api/customers?filterJson={"queryText":"mar",…}
 */
export function requestFor(op: BenchOp, i: number, { n, terms, jobs }: OpContext): BenchRequest {
  switch (op) {
    case 'list-first':
      return { method: 'GET', path: listPath({ limit: pageSize, offset: 0 }) };
    case 'list-deep':
      // The last page of the list.
      return { method: 'GET', path: listPath({ limit: pageSize, offset: Math.max(0, n - pageSize) }) };
    case 'search-common':
      return { method: 'GET', path: listPath({ queryText: terms.common, limit: pageSize, offset: 0 }) };
    case 'search-rare':
      return { method: 'GET', path: listPath({ queryText: terms.rare, limit: pageSize, offset: 0 }) };
    case 'search-prefix':
      return { method: 'GET', path: listPath({ queryText: terms.prefix, limit: pageSize, offset: 0 }) };
    case 'get':
      return { method: 'GET', path: `/api/customers/${spreadId(i, n)}` };
    case 'create':
      return {
        method: 'POST',
        path: '/api/customers',
        body: JSON.stringify({ full_name: `Bench Created ${i}`, email: `bench.created.${i}@example.com`, phone: `555-01${i % 100}` }),
      };
    case 'update':
      return {
        method: 'PUT',
        path: `/api/customers/${spreadId(i + 1, n)}`,
        body: JSON.stringify({ full_name: `Bench Updated ${i}`, email: `bench.updated.${i}@example.com`, phone: `555-02${i % 100}` }),
      };
    default:
      return jobRequest(op, i, n, jobs);
  }
}

/** How many times to run each operation. */
export interface LoopPlan {
  ops: readonly BenchOp[];
  warmup: number;
  iterations: number;
  ctx: OpContext;
  /** Where the iteration numbers start (so that rounds of one benchmark use different ids). */
  first?: number;
}

/** Milliseconds per iteration, per operation. */
export type Samples = Partial<Record<BenchOp, number[]>>;

/**
 * Runs every operation of `plan` with `send` (which must finish reading the answer), timing each
 * call on its own. Fails on the first answer that is not 2xx, so a broken path never yields numbers.
 */
export async function runLoops(
  plan: LoopPlan,
  send: (request: BenchRequest) => Promise<{ status: number }>,
  now: () => number = () => performance.now(),
): Promise<Samples> {
  const samples: Samples = {};
  for (const op of plan.ops) {
    const times: number[] = [];
    const first = plan.first ?? 0;
    for (let i = 0; i < plan.warmup + plan.iterations; i++) {
      const request = requestFor(op, first + i, plan.ctx);
      const started = now();
      const { status } = await send(request);
      const elapsed = now() - started;
      if (status < 200 || status > 299) throw new Error(`${op}: ${request.method} ${request.path} answered ${status}`);
      if (i >= plan.warmup) times.push(elapsed);
    }
    samples[op] = times;
  }
  return samples;
}

/**
 * Creates `k` quote jobs for `jobs-move` to move (each goes quote ↔ cancelled); returns their ids.
 * @example
 * const moveIds = await makeMoveJobs((r) => fetch(r.path, { method: r.method, body: r.body }), 16);
 */
export async function makeMoveJobs(send: (request: BenchRequest) => Promise<Response>, k: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < k; i++) {
    const response = await send({ method: 'POST', path: '/api/jobs', body: JSON.stringify({ customer_id: String(1 + i), title: `Bench move ${i}` }) });
    const job = (await response.json()) as { id?: unknown };
    if (!response.ok || typeof job.id !== 'string') throw new Error(`Creating a job to move answered ${response.status}.`);
    ids.push(job.id);
  }
  return ids;
}
