// The soak's mixed workload (issue 12, item 5), shared by the HTTP server soak (this package) and
// the browser soak (apps/web/e2e/long/soak.e2e.test.ts): clients each send one request at a time —
// reads, searches, creates, updates, job status moves — and remember what was acknowledged, so
// that after crashes and restarts every acknowledged write can be looked for in the database.

/**
 * What one request got: an HTTP answer, or no answer at all. `cutOff` says why when the test itself
 * took the answer away (it killed the server, or closed the tab the request was sent from); any
 * other request without an answer is a failure of the system under test.
 */
export type Outcome = { status: number; json: unknown } | { error: string; cutOff?: string };

/** Sends one request for client `client` (a number from 0). */
export type Transport = (request: { method: string; path: string; body?: unknown }, client: number) => Promise<Outcome>;

export type OperationKind = 'list' | 'search' | 'get' | 'create-customer' | 'update-customer' | 'create-job' | 'move-job';

const weights: [OperationKind, number][] = [
  ['list', 22],
  ['search', 16],
  ['get', 10],
  ['create-customer', 18],
  ['update-customer', 12],
  ['create-job', 10],
  ['move-job', 12],
];

/** The forward path a soak job takes; `paid` is final. */
const nextStatus: Record<string, string | undefined> = {
  quote: 'scheduled',
  scheduled: 'in_progress',
  in_progress: 'completed',
  completed: 'invoiced',
  invoiced: 'paid',
};

interface TrackedCustomer {
  id: string;
  email: string;
  /** Emails sent in updates whose outcome is unknown (no answer, or a 503/504 in words). */
  maybe: string[];
}
interface TrackedJob {
  id: string;
  status: string;
  maybe: string[];
}

export interface SoakOptions {
  /** Requests in all, across clients. */
  requests: number;
  /** Clients sending at once, each one request at a time. */
  clients: number;
  /** Distinguishes this run's rows from seed data and other runs. */
  tag: string;
  transport: Transport;
  /** Called after each request is issued, with how many have been issued so far. */
  onIssued?: (issued: number) => void | Promise<void>;
}

export interface SoakFigures {
  requests: number;
  clients: number;
  byOperation: Record<string, number>;
  byStatus: Record<string, number>;
  /** Writes answered 200. */
  acknowledgedWrites: number;
  /** Writes with no answer (the connection or tab died) or a 503/504 "may or may not have been saved". */
  unknownWrites: number;
  /** Requests that got an HTTP answer. Every request is answered, cut off, or counted in `noAnswer`. */
  answered: number;
  /** Requests the test itself cut off (in flight when it killed the server or closed their tab), by reason. */
  cutOff: Record<string, number>;
  /** Requests with no HTTP answer that the test did not cut off: each one is a failure. */
  noAnswer: number;
  /** The first of those (method, path, why), for the report. */
  unanswered: { method: string; path: string; error: string }[];
  /**
   * The browser relay's 503 for a write that was on its way to an owner tab that closed: it may
   * have run, so it is not sent again; the answer says so in words ("may or may not have been
   * saved"). Kept apart from `serverErrors` so that a run can bound them (decision 0053).
   */
  doubtfulWrites: { status: number; method: string; path: string; body: string }[];
  /** Every other 5xx answer (status, path, first 300 characters). */
  serverErrors: { status: number; method: string; path: string; body: string }[];
  /** Answers that were neither 2xx nor an expected 4xx for the request (a 409 for a move is not expected either). */
  unexpected: { status: number; method: string; path: string; body: string }[];
  durationMs: number;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const filterQuery = (filter: object) => `filterJson=${encodeURIComponent(JSON.stringify(filter))}`;

/**
 * Runs the workload and keeps what every client saw. `verify` afterwards looks for each
 * acknowledged write in the database.
 */
export class SoakWorkload {
  readonly customers: TrackedCustomer[] = [];
  readonly jobs: TrackedJob[] = [];
  private issued = 0;
  private stopped = false;
  private readonly figures: Omit<SoakFigures, 'durationMs'>;

  constructor(private readonly options: SoakOptions) {
    this.figures = {
      requests: 0,
      clients: options.clients,
      byOperation: {},
      byStatus: {},
      acknowledgedWrites: 0,
      unknownWrites: 0,
      answered: 0,
      cutOff: {},
      noAnswer: 0,
      unanswered: [],
      doubtfulWrites: [],
      serverErrors: [],
      unexpected: [],
    };
  }

  /** Stops every client after its current request (for a kill: what is in flight stays in flight). */
  stop(): void {
    this.stopped = true;
  }

  /** Lets stopped clients run again (after a restart), up to the total of requests. */
  resume(): void {
    this.stopped = false;
  }

  get issuedCount(): number {
    return this.issued;
  }

  /** Runs every client until the total is issued (or `stop()`), and waits for their last answers. */
  async run(): Promise<void> {
    await Promise.all(Array.from({ length: this.options.clients }, (_, client) => this.client(client)));
  }

  report(durationMs: number): SoakFigures {
    return { ...this.figures, durationMs: Math.round(durationMs) };
  }

  private async client(client: number): Promise<void> {
    const random = mulberry32(0x5eed + client * 7919 + this.issued);
    const mine = { customers: [] as TrackedCustomer[], jobs: [] as TrackedJob[] };
    const pick = <T>(items: T[]): T | undefined => items[Math.floor(random() * items.length)];
    while (!this.stopped && this.issued < this.options.requests) {
      const n = ++this.issued;
      let roll = random() * 100;
      let kind: OperationKind = 'list';
      for (const [k, w] of weights) {
        if ((roll -= w) < 0) {
          kind = k;
          break;
        }
      }
      if ((kind === 'update-customer' || kind === 'create-job') && mine.customers.length === 0) kind = 'create-customer';
      const movable = mine.jobs.filter((job) => nextStatus[job.status] && job.maybe.length === 0);
      if (kind === 'move-job' && movable.length === 0) kind = mine.customers.length > 0 ? 'create-job' : 'create-customer';
      this.figures.byOperation[kind] = (this.figures.byOperation[kind] ?? 0) + 1;
      const onIssued = this.options.onIssued?.(n);
      await this.operation(kind, client, n, mine, pick, random);
      await onIssued;
    }
  }

  private async operation(
    kind: OperationKind,
    client: number,
    n: number,
    mine: { customers: TrackedCustomer[]; jobs: TrackedJob[] },
    pick: <T>(items: T[]) => T | undefined,
    random: () => number,
  ): Promise<void> {
    const tag = this.options.tag;
    switch (kind) {
      case 'list': {
        await this.send(client, { method: 'GET', path: `/api/customers?${filterQuery({ limit: 20, offset: Math.floor(random() * 100) })}` }, false);
        return;
      }
      case 'search': {
        const jobs = random() < 0.4;
        const text = random() < 0.5 ? tag : pick(['an', 'Smith', 'soak', `c${client}`, '555', 'boiler']);
        await this.send(client, { method: 'GET', path: `/api/${jobs ? 'jobs' : 'customers'}?${filterQuery({ queryText: text, limit: 20 })}` }, false);
        return;
      }
      case 'get': {
        const own = pick(mine.customers);
        const job = random() < 0.3 ? pick(mine.jobs) : undefined;
        const path = job ? `/api/jobs/${job.id}` : own ? `/api/customers/${own.id}` : `/api/customers/${1 + Math.floor(random() * 20)}`;
        await this.send(client, { method: 'GET', path }, false);
        return;
      }
      case 'create-customer': {
        const email = `c${client}.n${n}@soak.example`;
        const outcome = await this.send(client, { method: 'POST', path: '/api/customers', body: { full_name: `${tag} c${client} n${n}`, email, phone: `555 ${n}` } }, true);
        if ('status' in outcome && outcome.status === 200) {
          const customer = { id: (outcome.json as { id: string }).id, email, maybe: [] };
          mine.customers.push(customer);
          this.customers.push(customer);
        }
        return;
      }
      case 'update-customer': {
        const customer = pick(mine.customers) as TrackedCustomer;
        const email = `c${client}.n${n}.v@soak.example`;
        const outcome = await this.send(
          client,
          { method: 'PUT', path: `/api/customers/${customer.id}`, body: { full_name: `${tag} c${client} updated ${n}`, email, phone: `555 ${n}` } },
          true,
        );
        if ('status' in outcome && outcome.status === 200) {
          customer.email = email;
          customer.maybe = [];
        } else if (unknownOutcome(outcome)) {
          customer.maybe.push(email);
        }
        return;
      }
      case 'create-job': {
        const customer = pick(mine.customers) as TrackedCustomer;
        const outcome = await this.send(
          client,
          { method: 'POST', path: '/api/jobs', body: { customer_id: customer.id, title: `${tag} job c${client} n${n}`, price_cents: n } },
          true,
        );
        if ('status' in outcome && outcome.status === 200) {
          const job = { id: (outcome.json as { id: string }).id, status: 'quote', maybe: [] };
          mine.jobs.push(job);
          this.jobs.push(job);
        }
        return;
      }
      case 'move-job': {
        const job = pick(mine.jobs.filter((j) => nextStatus[j.status] && j.maybe.length === 0)) as TrackedJob;
        const status = nextStatus[job.status] as string;
        const body = status === 'scheduled' ? { status, scheduled_start_dt: Date.UTC(2027, 0, 1 + (n % 28), 9) } : { status };
        const outcome = await this.send(client, { method: 'PATCH', path: `/api/jobs/${job.id}`, body }, true);
        if ('status' in outcome && outcome.status === 200) {
          job.status = status;
          job.maybe = [];
        } else if (unknownOutcome(outcome)) {
          job.maybe.push(status);
        }
        return;
      }
    }
  }

  private async send(client: number, request: { method: string; path: string; body?: unknown }, write: boolean): Promise<Outcome> {
    this.figures.requests++;
    let outcome: Outcome;
    try {
      outcome = await this.options.transport(request, client);
    } catch (error) {
      outcome = { error: error instanceof Error ? error.message : String(error) };
    }
    const key = 'status' in outcome ? String(outcome.status) : outcome.cutOff ? 'cut off' : 'no answer';
    this.figures.byStatus[key] = (this.figures.byStatus[key] ?? 0) + 1;
    if ('status' in outcome) this.figures.answered++;
    else if (outcome.cutOff) this.figures.cutOff[outcome.cutOff] = (this.figures.cutOff[outcome.cutOff] ?? 0) + 1;
    else {
      this.figures.noAnswer++;
      if (this.figures.unanswered.length < 20) this.figures.unanswered.push({ method: request.method, path: request.path, error: outcome.error.slice(0, 300) });
    }
    if (write && 'status' in outcome && outcome.status === 200) this.figures.acknowledgedWrites++;
    if (write && unknownOutcome(outcome)) this.figures.unknownWrites++;
    if ('status' in outcome) {
      const entry = { status: outcome.status, method: request.method, path: request.path, body: JSON.stringify(outcome.json ?? null).slice(0, 300) };
      if (write && outcome.status === 503 && request.method !== 'PUT' && entry.body.includes('may or may not have been saved')) this.figures.doubtfulWrites.push(entry);
      else if (outcome.status >= 500) this.figures.serverErrors.push(entry);
      // A GET of a low id may find no customer (404); nothing else is expected to fail.
      else if (outcome.status !== 200 && !(outcome.status === 404 && request.method === 'GET')) this.figures.unexpected.push(entry);
    }
    return outcome;
  }
}

function unknownOutcome(outcome: Outcome): boolean {
  return !('status' in outcome) || outcome.status === 503 || outcome.status === 504;
}

/** What `verify` found: every tracked write looked up in the database. */
export interface Verification {
  customersChecked: number;
  jobsChecked: number;
  /** Acknowledged creates not in the database. */
  missing: string[];
  /** Rows whose value is neither the acknowledged one nor one sent with an unknown outcome. */
  wrong: string[];
}

/**
 * Looks for every acknowledged write in a database (any SQLite access: `all` runs a query).
 * @example
 * const result = verify(workload, (sql) => db.prepare(sql).all());
 */
export function verify(workload: SoakWorkload, all: (sql: string) => Record<string, unknown>[]): Verification {
  const customers = new Map(all('SELECT id, email FROM customers').map((row) => [String(row.id), String(row.email)]));
  const jobs = new Map(all('SELECT id, status FROM jobs').map((row) => [String(row.id), String(row.status)]));
  const missing: string[] = [];
  const wrong: string[] = [];
  for (const customer of workload.customers) {
    const email = customers.get(customer.id);
    if (email === undefined) missing.push(`customer ${customer.id}`);
    else if (email !== customer.email && !customer.maybe.includes(email)) wrong.push(`customer ${customer.id}: ${email}, acknowledged ${customer.email}`);
  }
  for (const job of workload.jobs) {
    const status = jobs.get(job.id);
    if (status === undefined) missing.push(`job ${job.id}`);
    else if (status !== job.status && !job.maybe.includes(status)) wrong.push(`job ${job.id}: ${status}, acknowledged ${job.status}`);
  }
  return { customersChecked: workload.customers.length, jobsChecked: workload.jobs.length, missing, wrong };
}
