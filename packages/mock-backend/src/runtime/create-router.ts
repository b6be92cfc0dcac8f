import {
  apiBasePath,
  etagOf,
  jobRoutes,
  limits,
  matchRoute,
  parseIfMatch,
  totalCountHeader,
  type ApiIssue,
  type ChangeEvent,
  type RouteDefinition,
} from '@otto/api-contract';
import { StoreError, type BindParams, type Database } from '@otto/sqlite-store';
import type { Logger } from '../logger';
import type { SqlClient, SqlStore } from '../sql/types';
import { ApiError, toApiIssues } from './api-error';
import { changesOf } from './change-events';
import type { ExtensionRoutes } from './extensions';
import type { HandlerResult, RouteHandler } from './handler';
import { fingerprintOf, logAnswer, loggedAnswer, requestIdOf, type LoggedAnswer } from './request-log';
import { errorResponse, jsonResponse, notFoundText, replayResponse } from './responses';
import { takeVersionStamp } from './version-stamp';
import { logChanges } from '../sync/sync-log';
import { replayedHeader } from '../sync/sync-push';
import { deviceIds, namedIds, recordIdsHeader } from '../sync/record-ids';
import { keepInOutbox } from '../sync/device-outbox';

interface RouterOptions {
  handlers: readonly RouteHandler[];
  /** Where every request runs as one unit of work. */
  sql: SqlStore;
  /** The synchronous SQLite connection extensions' handlers get (SQLite only). */
  db: Database;
  now: () => number;
  logger: Logger;
  /** Told about each change of a write, after the write committed. */
  publish: (event: ChangeEvent) => void;
  /** Routes of your own (`extensions` of createMockApi), tried on paths that are not Otto's. */
  extensionRoutes?: ExtensionRoutes;
  /** Whether writes are kept in the change log devices pull from (see MockApiOptions.changeLog). */
  changeLog?: boolean;
}

/**
 * The request pipeline shared by every route: routing, body parsing and its limits, the spec's
 * shape checks, filterJson handling, and the mapping of errors to responses. Handlers only write
 * the happy path.
 */
export function createRouter({ handlers, sql, db, now, logger, publish, extensionRoutes, changeLog = true }: RouterOptions): (request: Request) => Promise<Response> {
  const byRoute = new Map<RouteDefinition, RouteHandler>(handlers.map((h) => [h.route, h]));
  // Inside a unit of work the transaction is open: a handler's own transaction() is a savepoint.
  const unitDb = savepointsOnly(db);

  /** The answer of the GET of `path` in this unit of work, or undefined (none, or an error). */
  async function readBefore(client: SqlClient, path: string): Promise<unknown> {
    const read = matchRoute('GET', path);
    const getter = read.kind === 'match' ? byRoute.get(read.route) : undefined;
    if (read.kind !== 'match' || !getter) return undefined;
    try {
      const params = read.route.params ? parseParams(read.route, read.params) : undefined;
      const result = await getter.handle({ params, filter: {}, body: undefined, sql: client, db: unitDb, now, logger, ifMatch: undefined } as never);
      return result.data;
    } catch {
      return undefined;
    }
  }

  return async function handle(request: Request): Promise<Response> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return notFoundText();
    }
    if (!url.pathname.startsWith(`${apiBasePath}/`)) return notFoundText();
    const path = url.pathname.slice(apiBasePath.length);
    const match = matchRoute(request.method, path);
    // Otto's routes first; an extension's only on paths Otto does not have.
    const found =
      match.kind === 'match'
        ? { handler: byRoute.get(match.route), params: match.params }
        : match.kind === 'no-route'
          ? extensionRoutes?.match(request.method, path)
          : undefined;
    const handler = found?.handler;
    if (!found || !handler) return notFoundText();

    try {
      const route = handler.route;
      let body: unknown;
      let bodyBytes: Uint8Array = new Uint8Array();
      if (route.body) {
        const { parsed, bytes } = await readJsonBody(request, route.maxBodyBytes ?? limits.maxBodyBytes);
        bodyBytes = bytes;
        const shape = route.body.safeParse(parsed);
        if (!shape.success) {
          // Spec section 5: a customer body that fails the shape check is answered with null.
          if (route.invalidBody === 'null') return jsonResponse(null);
          throw new ApiError(400, 'VALIDATION_FAILED', 'Some fields need attention.', toApiIssues(shape.error.issues));
        }
        body = shape.data;
      }
      const filter = route.filterJson ? readFilter(url, route, logger) : undefined;
      const params = route.params ? parseParams(route, found.params) : undefined;
      const ifMatch = route.etag && route.method !== 'GET' ? parseIfMatch(request.headers.get('if-match')) : undefined;
      const run = (client: SqlClient, at = now) => handler.handle({ params, filter, body, sql: client, db: unitDb, now: at, logger, ifMatch } as never);
      const headersOf = (result: HandlerResult): Record<string, string> => {
        const headers: Record<string, string> = {};
        if (route.totalCount && result.totalCount !== undefined) headers[totalCountHeader] = String(result.totalCount);
        const modified = (result.data as { modified_dt?: unknown } | null)?.modified_dt;
        if (route.etag && typeof modified === 'number') headers.etag = etagOf(modified);
        return headers;
      };
      if (route.method === 'GET') {
        const result = await sql.transaction(async (client) => run(client), { readOnly: true });
        return jsonResponse(result.data, { headers: headersOf(result) });
      }
      // Writes run in a transaction so that a failure leaves nothing half done. A write sent again
      // under the same request id (a relay that lost its owner tab) is not run twice: the answer
      // its first run committed comes back (decision 0054), when it is the same request; the same
      // id with another request is refused (decision 0121).
      const requestId = requestIdOf(request);
      const fingerprint = requestId ? await fingerprintOf(request.method, path + url.search, bodyBytes) : undefined;
      const namedIdsHeader = request.headers.get(recordIdsHeader);
      const outcome = await sql.transaction(async (client): Promise<{ answer: LoggedAnswer; result?: HandlerResult; changes?: ChangeEvent[] }> => {
        const clock = now();
        // The write's moment comes from the database, first (decision 0120): its records' versions.
        const stamp = await takeVersionStamp(client, clock);
        const earlier = requestId && fingerprint ? await loggedAnswer(client, requestId, fingerprint, clock) : undefined;
        if (earlier) return { answer: earlier };
        // The ids of what it creates (decision 0163): those a pushed write names, a device's own
        // range on a device, else the database's.
        const device = namedIdsHeader === null ? await deviceIds(client) : undefined;
        if (device && route.longRunning) {
          throw new ApiError(409, 'CONFLICT', 'Imports are not synced yet: import on a computer that uses the team server directly, then sync.');
        }
        const ids = namedIdsHeader === null ? device : namedIds(namedIdsHeader);
        // On a device, the record an edit starts from (its GET's answer), to merge it with another
        // device's edit of other fields should the server refuse it; for an action on a record (a
        // job's move), the record it acts on.
        // A job's move starts from the job it moves (the one action a device merges): no other
        // action pays for a read it would not use.
        const before = route.method === 'PUT' || route.method === 'PATCH' ? path : route === jobRoutes.move ? path.replace(/\/move$/, '') : undefined;
        const base = device && route.etag && before ? await readBefore(client, before) : undefined;
        const result = await run(ids ? { ...client, ids } : client, () => stamp);
        const changes: ChangeEvent[] = changesOf(route, result);
        // The change log a device pulls from (decision 0163), in the write's own transaction;
        // not kept where nothing pulls (decision 0167).
        if (changeLog) await logChanges(client, stamp, changes);
        const answer: LoggedAnswer = { status: 200, headers: headersOf(result), body: JSON.stringify(result.data) };
        if (requestId && fingerprint) await logAnswer(client, requestId, fingerprint, answer, clock);
        // On a device, the write waits in its outbox until the server has run it.
        if (device) {
          await keepInOutbox(client, {
            requestId: requestId ?? `${stamp}-${crypto.randomUUID()}`,
            method: request.method.toUpperCase(),
            path: path + url.search,
            body: route.body ? new TextDecoder().decode(bodyBytes) : null,
            ifMatch: request.headers.get('if-match'),
            ifMatchVersions: ifMatch,
            ids: device.taken,
            stamp,
            touched: changes,
            base,
            madeAt: clock,
          });
        }
        return { answer, result, changes };
      });
      // Past this point the write committed: only now is it news for the change feed (a replay changed nothing).
      if (outcome.changes) publishAll(outcome.changes, publish, logger);
      const response = replayResponse(outcome.answer);
      // A push tells its device which writes had run already (decision 0163).
      if (!outcome.result) response.headers.set(replayedHeader, 'true');
      return response;
    } catch (error) {
      return toErrorResponse(error, logger);
    }
  };
}

/**
 * `db` whose transaction() nests as a savepoint in the unit of work already open (one a SqlStore
 * began with its own BEGIN, which the store's transaction() does not know of).
 * @example
 * bulkLoad(savepointsOnly(store), fill); // inside sql.transaction(…)
 */
export function savepointsOnly(db: Database): Database {
  let depth = 0;
  return {
    exec: (text) => db.exec(text),
    run: (text, params) => db.run(text, params),
    all: <T>(text: string, params?: BindParams) => db.all<T>(text, params),
    get: <T>(text: string, params?: BindParams) => db.get<T>(text, params),
    transaction<T>(fn: () => T): T {
      const name = `otto_unit_${depth++}`;
      db.exec(`SAVEPOINT ${name}`);
      try {
        const result = fn();
        db.exec(`RELEASE ${name}`);
        return result;
      } catch (error) {
        db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
        throw error;
      } finally {
        depth--;
      }
    },
  };
}

/** Path parameters that fail the route's schema are a 404: no such record can exist. */
function parseParams(route: RouteDefinition, raw: Record<string, string>): unknown {
  const result = (route.params as NonNullable<RouteDefinition['params']>).safeParse(raw);
  if (!result.success) throw new ApiError(404, 'NOT_FOUND', `Nothing was found at ${route.path.replace(/:(\w+)/g, (_, name: string) => raw[name] ?? '')}.`);
  return result.data;
}

function publishAll(events: ChangeEvent[], publish: (event: ChangeEvent) => void, logger: Logger): void {
  for (const event of events) {
    try {
      publish(event);
    } catch (error) {
      // A listener's failure must not turn a saved write into an error answer.
      logger.error('A change-feed listener failed', error);
    }
  }
}

/** The body as JSON, and its bytes (a request id's fingerprint is taken of them). */
async function readJsonBody(request: Request, maxBytes: number): Promise<{ parsed: unknown; bytes: Uint8Array }> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(400, 'INVALID_JSON', 'The request body is not valid UTF-8 text. Send the body as UTF-8 JSON.');
  }
  if (text.trim() === '') {
    throw new ApiError(400, 'INVALID_JSON', 'The request body is empty. Send the fields as a JSON object.');
  }
  try {
    return { parsed: JSON.parse(text), bytes };
  } catch {
    // The parser's message quotes the body back: it stays out of the answer (decision 0131).
    throw new ApiError(400, 'INVALID_JSON', 'The request body is not valid JSON. Check its quotes, commas and braces, and send a JSON object.');
  }
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(
    413,
    'PAYLOAD_TOO_LARGE',
    `The request body is larger than ${maxBytes} bytes. Send less data in one request.`,
  );
}

function readFilter(url: URL, route: RouteDefinition, logger: Logger): unknown {
  const raw = url.searchParams.get('filterJson');
  if (raw === null || !route.filterJson) return {};
  let issues: ApiIssue[] = [{ path: 'filterJson', message: 'filterJson must be a JSON object.' }];
  try {
    const result = route.filterJson.safeParse(JSON.parse(raw));
    if (result.success) return result.data;
    issues = toApiIssues(result.error.issues);
  } catch {
    // Not JSON: handled below like any other invalid value.
  }
  if (route.invalidFilter === 'error') {
    throw new ApiError(400, 'INVALID_PARAMS', 'The filterJson parameter is not valid for this list.', issues);
  }
  // Spec section 5: an invalid filterJson is ignored and logged.
  logger.warn('Invalid filterJson param', raw.length > 200 ? `${raw.slice(0, 200)}…` : raw);
  return {};
}

function toErrorResponse(error: unknown, logger: Logger): Response {
  if (error instanceof ApiError) {
    return errorResponse(error.status, {
      code: error.code,
      message: error.message,
      ...(error.issues ? { issues: error.issues } : {}),
      ...(error.allowed ? { allowed: [...error.allowed] } : {}),
    });
  }
  if (error instanceof StoreError) {
    if (error.code === 'STORAGE_FULL') {
      return errorResponse(507, {
        code: 'STORAGE_FULL',
        message: 'The browser refused to store more data, so nothing was saved. Free some disk space, then try again.',
      });
    }
    if (error.code === 'BUSY' || error.code === 'NOT_INITIALIZED') {
      return errorResponse(503, { code: 'SERVICE_UNAVAILABLE', message: `The database is not available: ${error.message}` });
    }
  }
  logger.error('Unexpected error while handling a request', error);
  return errorResponse(500, {
    code: 'INTERNAL',
    message: 'Something went wrong inside the mock backend; nothing was changed. Try again, and report it if it persists.',
  });
}
