import { z } from 'zod';
import {
  customerDuplicateQuerySchema,
  customerDuplicateSchema,
  customerListParamsSchema,
  customerSchema,
  customerShapeSchema,
} from './customer';
import {
  jobCountsSchema,
  jobInputSchema,
  jobListParamsSchema,
  jobMoveSchema,
  jobPatchSchema,
  jobRevertSchema,
  jobSchema,
} from './job';
import { customerImportBodySchema, importResultSchema, importUndoResultSchema, jobImportBodySchema, lastImportSchema } from './import';
import { apiBasePath, limits } from './limits';
import { reportSummaryParamsSchema, reportSummarySchema } from './report';

/**
 * The HTTP methods the route table uses.
 * @example
 * const method: HttpMethod = customerRoutes.update.method; // 'PUT'
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One call of the API: what it accepts and what it answers with on success.
 * @example
 * const route: RouteDefinition = customerRoutes.get;
 * const customer = route.response.parse(await res.json());
 */
export interface RouteDefinition {
  method: HttpMethod;
  /** Path below the API base, with `:name` for path parameters. */
  path: string;
  summary: string;
  params?: z.ZodType;
  /** Query parameters; `filterJson` holds JSON that must pass this schema. */
  filterJson?: z.ZodType;
  /**
   * What a `filterJson` failing its schema gets: ignored and logged, as the spec says for
   * customers (the default), or a 400 `INVALID_PARAMS`, for filters whose loss would widen the
   * answer (a job list scoped to one customer must never answer with everyone's jobs).
   */
  invalidFilter?: 'ignore' | 'error';
  body?: z.ZodType;
  /**
   * What a body failing `body` gets: the spec's 200 with `null` (customers), or by default a 400
   * `VALIDATION_FAILED` with the field issues.
   */
  invalidBody?: 'null' | 'error';
  response: z.ZodType;
  /**
   * Error answers particular to this call, by status, with when they happen. The errors every call
   * of its kind can give (a bad body, a missing id, a full disk) need not be listed: the OpenAPI
   * document derives them from the route's shape.
   */
  errors?: Readonly<Partial<Record<400 | 404 | 409 | 413, string>>>;
  /** List calls report the total number of matching rows in the X-Total-Count header. */
  totalCount?: boolean;
  /**
   * What a successful call publishes on the change feed once its write committed: the entity and
   * the kind; the ids are the answered record's.
   */
  change?: { entity: 'customer' | 'job'; kind: 'created' | 'updated' | 'deleted' };
  /**
   * The answer is one record and carries its `ETag` (`etagOf(modified_dt)`); on a write, an
   * `If-Match` header makes it conditional: 412 `PRECONDITION_FAILED` when the record changed.
   */
  etag?: boolean;
  /** The largest body this call takes, in bytes, when not `limits.maxBodyBytes` (an import). */
  maxBodyBytes?: number;
  /**
   * The call may take much longer than a page of data (an import of 50 000 rows and its undo, on a
   * slow machine): relays wait `limits.longRequestTimeoutMs` for it instead of their usual timeout.
   */
  longRunning?: boolean;
}

const idParams = z.object({ id: z.string() });

/**
 * Every customer call of the spec (section 7), PATCH included.
 * @example
 * const { method, path } = customerRoutes.update; // 'PUT', '/customers/:id'
 */
export const customerRoutes = {
  list: {
    method: 'GET',
    path: '/customers',
    summary:
      'List customers: full-text search when queryText is non-empty (digits typed in any form also match inside phone numbers), else newest modified first; sortBy orders by name, created or modified instead. Archived customers only with archived: true.',
    filterJson: customerListParamsSchema,
    response: z.array(customerSchema),
    totalCount: true,
  },
  duplicates: {
    method: 'GET',
    path: '/customers/duplicates',
    summary:
      'Customers (not archived) that already have this email (ignoring case) or a phone whose digits end with these six or more digits: for a warning before creating a customer.',
    filterJson: customerDuplicateQuerySchema,
    invalidFilter: 'error',
    response: z.array(customerDuplicateSchema),
  },
  import: {
    method: 'POST',
    path: '/customers/import',
    summary:
      'Import many customers in one transaction (all or nothing). Rows breaking a field rule are skipped and named; duplicates (same email as a customer or an earlier row, ignoring case) are skipped, written over the existing customer, or created, as `duplicates` says. `dryRun` answers the same without saving.',
    body: customerImportBodySchema,
    errors: {
      400: `More than ${limits.maxImportRows} rows, or a body that is not a list of rows.`,
      413: `A body larger than ${limits.maxImportBodyBytes} bytes.`,
    },
    response: importResultSchema,
    maxBodyBytes: limits.maxImportBodyBytes,
    longRunning: true,
  },
  get: {
    method: 'GET',
    path: '/customers/:id',
    summary: 'One customer by id.',
    params: idParams,
    response: customerSchema,
    etag: true,
  },
  create: {
    method: 'POST',
    path: '/customers',
    summary: 'Create a customer; null when the body fails the shape check.',
    body: customerShapeSchema,
    invalidBody: 'null',
    response: customerSchema.nullable(),
    change: { entity: 'customer', kind: 'created' },
  },
  update: {
    method: 'PUT',
    path: '/customers/:id',
    summary: 'Update full_name, email and phone; null when the body fails the shape check.',
    params: idParams,
    body: customerShapeSchema,
    invalidBody: 'null',
    response: customerSchema.nullable(),
    change: { entity: 'customer', kind: 'updated' },
    etag: true,
  },
  patch: {
    method: 'PATCH',
    path: '/customers/:id',
    summary: 'Same as PUT.',
    params: idParams,
    body: customerShapeSchema,
    invalidBody: 'null',
    response: customerSchema.nullable(),
    change: { entity: 'customer', kind: 'updated' },
    etag: true,
  },
  archive: {
    method: 'POST',
    path: '/customers/:id/archive',
    summary:
      'Archive a customer: out of lists, searches, counts and pickers until restored; their jobs are kept. Archiving an archived customer changes nothing.',
    params: idParams,
    response: customerSchema,
    change: { entity: 'customer', kind: 'updated' },
    etag: true,
  },
  restore: {
    method: 'POST',
    path: '/customers/:id/restore',
    summary: 'Restore an archived customer (the Undo of an archive). Restoring one that is not archived changes nothing.',
    params: idParams,
    response: customerSchema,
    change: { entity: 'customer', kind: 'updated' },
    etag: true,
  },
  remove: {
    method: 'DELETE',
    path: '/customers/:id',
    summary: 'Delete an archived customer for good; answers the customer as it was.',
    params: idParams,
    errors: {
      409: 'The customer is not archived (archive first), or still has jobs (delete those first).',
    },
    response: customerSchema,
    change: { entity: 'customer', kind: 'deleted' },
    etag: true,
  },
} as const satisfies Record<string, RouteDefinition>;

/**
 * Every job call. Bad input is a 400 with the field issues, an unknown customer a 400, a missing job
 * a 404, and a status move the lifecycle forbids a 409 naming the allowed next statuses.
 * @example
 * const { method, path } = jobRoutes.counts; // 'GET', '/jobs/counts'
 */
export const jobRoutes = {
  list: {
    method: 'GET',
    path: '/jobs',
    summary: 'List jobs, filtered by search text, status and customer; newest modified first, or best matches; sortBy orders by title, price, scheduled date, status or modified instead.',
    filterJson: jobListParamsSchema,
    invalidFilter: 'error',
    response: z.array(jobSchema),
    totalCount: true,
  },
  counts: {
    method: 'GET',
    path: '/jobs/counts',
    summary: 'How many jobs match the search text and customer, per status.',
    filterJson: jobListParamsSchema,
    invalidFilter: 'error',
    response: jobCountsSchema,
  },
  import: {
    method: 'POST',
    path: '/jobs/import',
    summary:
      'Import many jobs in one transaction (all or nothing). Each row names its customer by email, else by exact full name; a row finding none or several, or breaking a field rule, is skipped and named. Duplicates (same customer, title and scheduled start as a job or an earlier row) follow `duplicates`. `dryRun` answers the same without saving.',
    body: jobImportBodySchema,
    errors: {
      400: `More than ${limits.maxImportRows} rows, or a body that is not a list of rows.`,
      413: `A body larger than ${limits.maxImportBodyBytes} bytes.`,
    },
    response: importResultSchema,
    maxBodyBytes: limits.maxImportBodyBytes,
    longRunning: true,
  },
  get: {
    method: 'GET',
    path: '/jobs/:id',
    summary: 'One job by id.',
    params: idParams,
    response: jobSchema,
    etag: true,
  },
  create: {
    method: 'POST',
    path: '/jobs',
    summary: 'Create a job for an existing customer.',
    body: jobInputSchema,
    errors: { 400: 'An unknown customer is an issue on customer_id.' },
    response: jobSchema,
    change: { entity: 'job', kind: 'created' },
  },
  update: {
    method: 'PUT',
    path: '/jobs/:id',
    summary: 'Replace every field of a job; a status change must be an allowed move.',
    params: idParams,
    errors: {
      400: 'An unknown customer is an issue on customer_id; moving into scheduled without a start time, one on scheduled_start_dt.',
      409: 'The lifecycle forbids this status move; the message names the allowed next statuses and `allowed` lists them.',
    },
    body: jobInputSchema,
    response: jobSchema,
    change: { entity: 'job', kind: 'updated' },
    etag: true,
  },
  patch: {
    method: 'PATCH',
    path: '/jobs/:id',
    summary: 'Change some fields of a job; a status change must be an allowed move.',
    params: idParams,
    errors: {
      400: 'An unknown customer is an issue on customer_id; moving into scheduled without a start time, one on scheduled_start_dt.',
      409: 'The lifecycle forbids this status move; the message names the allowed next statuses and `allowed` lists them.',
    },
    body: jobPatchSchema,
    response: jobSchema,
    change: { entity: 'job', kind: 'updated' },
    etag: true,
  },
  move: {
    method: 'POST',
    path: '/jobs/:id/move',
    summary:
      'A one-click status move: only the status (and the start time when scheduling). The move is remembered so that exactly it can be undone with revert.',
    params: idParams,
    errors: {
      400: 'Moving into scheduled without a start time (the job has none) is an issue on scheduled_start_dt.',
      409: 'The lifecycle forbids this move (the message names the allowed next statuses and `allowed` lists them), or the job is archived.',
    },
    body: jobMoveSchema,
    response: jobSchema,
    change: { entity: 'job', kind: 'updated' },
    etag: true,
  },
  revert: {
    method: 'POST',
    path: '/jobs/:id/revert',
    summary:
      "Undo the job's last one-click move, named by the version (modified_dt) it produced: the status, its date and the schedule go back to what they were, paid included. Only while the job is still at that version and within 10 minutes.",
    params: idParams,
    errors: {
      409: 'There is no such move to undo: the job changed since (another move, an edit), the move is older than 10 minutes, or the version names no move.',
    },
    body: jobRevertSchema,
    response: jobSchema,
    change: { entity: 'job', kind: 'updated' },
    etag: true,
  },
  archive: {
    method: 'POST',
    path: '/jobs/:id/archive',
    summary: 'Archive a job: out of lists, searches and counts until restored. Archiving an archived job changes nothing.',
    params: idParams,
    response: jobSchema,
    change: { entity: 'job', kind: 'updated' },
    etag: true,
  },
  restore: {
    method: 'POST',
    path: '/jobs/:id/restore',
    summary: 'Restore an archived job (the Undo of an archive).',
    params: idParams,
    response: jobSchema,
    change: { entity: 'job', kind: 'updated' },
    etag: true,
  },
  remove: {
    method: 'DELETE',
    path: '/jobs/:id',
    summary: 'Delete an archived job for good; answers the job as it was.',
    params: idParams,
    errors: { 409: 'The job is not archived: archive it first.' },
    response: jobSchema,
    change: { entity: 'job', kind: 'deleted' },
    etag: true,
  },
} as const satisfies Record<string, RouteDefinition>;

/**
 * The undo of the last import: what it is, and undoing it.
 * @example
 * const { method, path } = importRoutes.undo; // 'POST', '/imports/last/undo'
 */
export const importRoutes = {
  last: {
    method: 'GET',
    path: '/imports/last',
    summary: 'The last import, while it can still be undone; null when there is none (or it was undone).',
    response: lastImportSchema,
  },
  undo: {
    method: 'POST',
    path: '/imports/last/undo',
    summary:
      'Undo the last import: removes exactly the records it added and puts back the values of those it updated, in one transaction.',
    errors: {
      404: 'There is no import to undo.',
      409: 'A record the import touched changed since (edited, or given a job): nothing was undone.',
    },
    response: importUndoResultSchema,
    longRunning: true,
  },
} as const satisfies Record<string, RouteDefinition>;

/**
 * Reports over the whole business, computed by the backend (decision 0080).
 * @example
 * const { method, path } = reportRoutes.summary; // 'GET', '/reports/summary'
 */
export const reportRoutes = {
  summary: {
    method: 'GET',
    path: '/reports/summary',
    summary:
      "The Overview's figures: this week's scheduled and in-progress jobs by day, money owed and who owes most, paid per month against a year earlier, jobs by status, new customers per month. Months and days are those of the time zone tz.",
    filterJson: reportSummaryParamsSchema,
    invalidFilter: 'error',
    errors: { 400: 'filterJson is missing, has no known time zone tz, or a month, day or range that is not valid.' },
    response: reportSummarySchema,
  },
} as const satisfies Record<string, RouteDefinition>;

/**
 * The route table: every call an Otto backend answers.
 * @example
 * routes.customers.list.path; // '/customers'
 * routes.jobs.counts.method; // 'GET'
 * routes.reports.summary.path; // '/reports/summary'
 */
export const routes = { customers: customerRoutes, jobs: jobRoutes, imports: importRoutes, reports: reportRoutes } as const;

/**
 * Every route as a flat list, in the order a router should try them.
 * @example
 * const paths = allRoutes.map((r) => `${r.method} ${r.path}`); // ['GET /customers', …]
 */
export const allRoutes: readonly RouteDefinition[] = Object.values(routes).flatMap((group) =>
  Object.values(group),
);

/**
 * The largest body any call takes, in bytes: what a server may read before it knows the route.
 * @example
 * if (declaredLength > largestBodyBytes) refuse413();
 */
export const largestBodyBytes = Math.max(limits.maxBodyBytes, ...allRoutes.map((r) => r.maxBodyBytes ?? 0));

/**
 * The largest body a call takes, in bytes: its own limit, else `limits.maxBodyBytes`.
 * @example
 * bodyLimitOf('POST', '/customers/import'); // 16777216
 */
export function bodyLimitOf(method: string, path: string): number {
  const match = matchRoute(method, path);
  return (match.kind === 'match' ? match.route.maxBodyBytes : undefined) ?? limits.maxBodyBytes;
}

/**
 * True when the call (method and URL or path below the API base) may run long (`longRunning`).
 * @example
 * isLongRunning('POST', '/api/customers/import'); // true
 */
export function isLongRunning(method: string, urlOrPath: string): boolean {
  let path = urlOrPath;
  if (URL.canParse(urlOrPath)) path = new URL(urlOrPath).pathname;
  if (path.startsWith(`${apiBasePath}/`)) path = path.slice(apiBasePath.length);
  const match = matchRoute(method, path);
  return match.kind === 'match' && match.route.longRunning === true;
}

/**
 * Fills a route path's `:name` parameters and prefixes the API base path.
 * @example
 * buildPath('/customers/:id', { id: '42' }); // '/api/customers/42'
 */
export function buildPath(path: string, params: Record<string, string> = {}): string {
  const filled = path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}.`);
    return encodeURIComponent(value);
  });
  return `${apiBasePath}${filled}`;
}

/**
 * The result of matching a request path against the route table: a route with its path
 * parameters, a known path with an unknown method, or no route at all.
 * @example
 * const m: RouteMatch = matchRoute('DELETE', '/customers/7'); // { kind: 'method-not-allowed' }
 */
export type RouteMatch =
  | { kind: 'match'; route: RouteDefinition; params: Record<string, string> }
  | { kind: 'method-not-allowed' }
  | { kind: 'no-route' };

/**
 * Finds the route for a method and a path below the API base (`/customers/7`).
 * @example
 * const m = matchRoute('GET', '/customers/7'); // { kind: 'match', params: { id: '7' }, … }
 */
export function matchRoute(method: string, path: string): RouteMatch {
  const segments = path.split('/').filter(Boolean);
  let pathMatched = false;
  for (const route of allRoutes) {
    const params = matchSegments(route.path.split('/').filter(Boolean), segments);
    if (!params) continue;
    if (route.method === method.toUpperCase()) return { kind: 'match', route, params };
    pathMatched = true;
  }
  return pathMatched ? { kind: 'method-not-allowed' } : { kind: 'no-route' };
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | null {
  if (pattern.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i] as string;
    const got = actual[i] as string;
    if (want.startsWith(':')) {
      try {
        params[want.slice(1)] = decodeURIComponent(got);
      } catch {
        return null;
      }
    } else if (want !== got) {
      return null;
    }
  }
  return params;
}
