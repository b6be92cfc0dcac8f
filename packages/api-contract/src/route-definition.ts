// The shape of one call in the route table, and the path parameters the route groups share.
import { z } from 'zod';

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
  change?: { entity: 'customer' | 'job' | 'invoice' | 'settings'; kind: 'created' | 'updated' | 'deleted' };
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

/** Path parameters of a call on one record: `/:id`. */
export const idParams = z.object({ id: z.string() });
