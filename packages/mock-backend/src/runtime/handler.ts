import type { ChangeEvent, RouteDefinition } from '@otto/api-contract';
import type { Database } from '@otto/sqlite-store';
import type { z } from 'zod';
import type { Logger } from '../logger';
import type { SqlClient } from '../sql/types';

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

/**
 * What a handler gets: inputs that already passed the route's shape checks, and the database.
 * @example
 * const handle = ({ body, db, now }: HandlerContext<typeof createNoteRoute>) => ({ data: insertNote(db, body.text, now()) });
 */
export interface HandlerContext<R extends Pick<RouteDefinition, 'params' | 'filterJson' | 'body'> = RouteDefinition> {
  params: Infer<R['params']>;
  /** The filterJson value when it passed the shape check; `{}` when absent or ignored. */
  filter: R['filterJson'] extends z.ZodType ? Partial<Infer<R['filterJson']>> : undefined;
  body: Infer<R['body']>;
  /**
   * The request's unit of work on the database, SQLite or PostgreSQL (Otto's own handlers use
   * this): one transaction for a write, one consistent read for a GET.
   */
  sql: SqlClient;
  /**
   * The SQLite connection itself, synchronous, inside the same unit of work (for extensions,
   * which run on SQLite only).
   */
  db: Database;
  /**
   * In a write, the write's stamp from the database (decision 0120): later than every version
   * there is, the same however often it is called; store it as `modified_dt` (and `created_dt`).
   * In a read, the clock.
   */
  now: () => number;
  logger: Logger;
  /**
   * The request's `If-Match`, parsed: undefined when absent, `'*'`, or the `modified_dt` versions
   * it names. Handlers of `etag` write routes check it with `checkPrecondition` before saving.
   */
  ifMatch: number[] | '*' | undefined;
}

/**
 * What a handler answers: the response data and, for list routes, the total row count.
 * @example
 * const result: HandlerResult = { data: notes, totalCount: 42 };
 */
export interface HandlerResult {
  data: unknown;
  totalCount?: number;
  /**
   * What the write changed, for the change feed, when the route's `change` metadata cannot say it
   * (a bulk write). Published only once the write committed.
   */
  changes?: ChangeEvent[];
}

/**
 * A route with the function that answers it (happy path only; throw ApiError otherwise).
 * @example
 * const routes: RouteHandler[] = [defineRoute({ method: 'GET', path: '/notes' }, ({ db }) => ({ data: db.all('SELECT * FROM notes') }))];
 */
export interface RouteHandler<R extends RouteDefinition = RouteDefinition> {
  route: R;
  handle(ctx: HandlerContext<R>): HandlerResult | Promise<HandlerResult>;
}

/**
 * Binds a handler to a contract route so its context is typed by the route's schemas.
 * @example
 * const getCustomer = defineHandler(customerRoutes.get, async ({ params, sql }) => ({ data: await findCustomer(sql, params.id) }));
 */
export function defineHandler<R extends RouteDefinition>(
  route: R,
  handle: (ctx: HandlerContext<R>) => HandlerResult | Promise<HandlerResult>,
): RouteHandler {
  return { route, handle: handle as RouteHandler['handle'] };
}
