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

/** The list and search operations the MSW peer serves too. */
export const peerOps = ['list-first', 'list-deep', 'search-common', 'search-rare', 'search-prefix'] as const satisfies readonly CustomerOp[];

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
}

export interface BenchRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** Path and query below the origin, e.g. `/api/customers?filterJson=…`. */
  path: string;
  /** A JSON body, for POST and PUT. */
  body?: string;
}

const pageSize = 10;

function listPath(filter: { queryText?: string; limit: number; offset: number }): string {
  return `/api/customers?filterJson=${encodeURIComponent(JSON.stringify(filter))}`;
}

/** A customer id spread over 1…n, different for consecutive iterations. */
export function spreadId(i: number, n: number): number {
  return 1 + ((i * 7919 + 13) % n);
}

/**
 * The request of iteration `i` of `op`.
 * @example
 * requestFor('search-prefix', 0, { n: 500, terms }); // GET /api/customers?filterJson={"queryText":"mar",…}
 */
export function requestFor(op: CustomerOp, i: number, { n, terms }: OpContext): BenchRequest {
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
  }
}

/** How many times to run each operation. */
export interface LoopPlan {
  ops: readonly CustomerOp[];
  warmup: number;
  iterations: number;
  ctx: OpContext;
  /** Where the iteration numbers start (so that rounds of one benchmark use different ids). */
  first?: number;
}

/** Milliseconds per iteration, per operation. */
export type Samples = Partial<Record<CustomerOp, number[]>>;

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
