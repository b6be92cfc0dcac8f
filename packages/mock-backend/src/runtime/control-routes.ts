// The control routes below /api/__otto/: scenarios, fixtures and snapshots (decision 0142).
import { limits, type ChangeEvent } from '@otto/api-contract';
import type { SqliteStore } from '@otto/sqlite-store';
import { FixtureError, loadFixture } from '../database/fixtures';
import { randomEpochSql } from '../sync/sync-log';
import { answerWithOverride, apiPathOf, controlError, controlPathPrefix, type ControlShelf, type Scenarios } from './scenarios';

interface ControlOptions {
  /** The scenario state; left out where scenarios are applied before this (the DB worker). */
  scenarios: Scenarios | undefined;
  /** The SQLite store, for fixtures and snapshots (a PostgreSQL database has none). */
  store: SqliteStore | undefined;
  now: () => number;
  publish: (event: ChangeEvent) => void;
  /** Where snapshots are kept. */
  shelf: ControlShelf;
  /** A server that keeps a team's data: every control route answers 404 and no scenario applies. */
  off?: boolean;
}

const ok = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });

async function jsonBody(request: Request, empty: unknown): Promise<{ body: unknown } | Response> {
  const text = await request.text();
  if (text.length > limits.maxImportBodyBytes) return controlError(413, 'PAYLOAD_TOO_LARGE', `The body is over ${limits.maxImportBodyBytes} bytes.`);
  if (!text.trim()) return empty === undefined ? controlError(400, 'VALIDATION_FAILED', 'The body is empty: send a fixture, { "customers": [ … ], "jobs": [ … ] }.') : { body: empty };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return controlError(400, 'INVALID_JSON', 'The body must be JSON.');
  }
}

/** The schema version a SQLite file was written at (`PRAGMA user_version`: bytes 60–63 of its header). */
const userVersionOf = (bytes: Uint8Array) => (bytes.length >= 64 ? new DataView(bytes.buffer, bytes.byteOffset + 60, 4).getUint32(0) : -1);

/**
 * Wraps a backend's `fetch` with the control routes and the scenario in force: a control request
 * is answered here, a request a scenario overrides gets the override's answer, and every other
 * request goes to `route`. On PostgreSQL (no SQLite store) every control route is refused: a
 * team's shared server is not a test's to change.
 */
export function withControl({ scenarios, store, now, publish, shelf, off = false }: ControlOptions, route: (request: Request) => Promise<Response>) {
  const reset = () => {
    // The data was replaced as a whole, its change log says nothing of it: a new epoch, so every
    // device that syncs with this server takes everything again (decision 0163).
    store?.exec(`DELETE FROM sync_log; UPDATE sync_state SET epoch = ${randomEpochSql.sqlite}, horizon = (SELECT last FROM version_stamp WHERE k = 1) WHERE k = 1`);
    publish({ entity: 'database', kind: 'reset', ids: [] });
  };

  async function data(request: Request, path: string, sqlite: SqliteStore): Promise<Response> {
    const method = request.method.toUpperCase();
    const allowed = path === 'data' ? ['PUT'] : path === 'snapshot' ? ['POST', 'DELETE'] : ['POST'];
    if (!allowed.includes(method)) return controlError(405, 'METHOD_NOT_ALLOWED', `${allowed.join(' or ')} here.`);
    const read = await jsonBody(request, path === 'data' ? undefined : {});
    if (read instanceof Response) return read;
    if (path === 'data') {
      try {
        const counts = sqlite.transaction(() => loadFixture(sqlite, read.body as never, now()));
        reset();
        return ok(counts);
      } catch (error) {
        if (error instanceof FixtureError) return controlError(400, 'VALIDATION_FAILED', error.message);
        throw error;
      }
    }
    const given = (read.body as { name?: unknown } | null)?.name ?? 'default';
    if (typeof given !== 'string' || !/^[\w-]{1,64}$/.test(given)) {
      return controlError(400, 'VALIDATION_FAILED', 'A snapshot\'s name is 1 to 64 letters, digits, "_" or "-".');
    }
    const key = `snapshot/${given}`;
    if (!sqlite.replaceDatabase) return controlError(400, 'NOT_SUPPORTED', 'This store cannot put a snapshot back (a SQLite file through better-sqlite3): use loadData.');
    if (path === 'snapshot' && method === 'DELETE') {
      await shelf.set(key, undefined);
      return ok({ name: given });
    }
    if (path === 'snapshot') {
      // A whole database as bytes, put back in milliseconds.
      await shelf.set(key, sqlite.exportDatabase());
      return ok({ name: given });
    }
    const bytes = await shelf.get(key);
    if (!bytes) return controlError(404, 'NOT_FOUND', `No snapshot is called “${given}”: POST /api/__otto/snapshot first.`);
    // Kept by another version of the app (Cache Storage outlasts a deploy): not this schema.
    const version = sqlite.userVersion();
    if (userVersionOf(bytes) !== version) {
      return controlError(409, 'CONFLICT', `The snapshot “${given}” is of schema version ${userVersionOf(bytes)}; this database is at ${version}. Take it again.`);
    }
    await sqlite.replaceDatabase(bytes);
    reset();
    return ok({ name: given });
  }

  return async function fetchWithControl(request: Request): Promise<Response> {
    const path = apiPathOf(request.url);
    if (path?.startsWith(controlPathPrefix)) {
      if (off) {
        return controlError(
          404,
          'NOT_FOUND',
          'This server keeps a team\'s data, so its test controls (scenarios, fixtures and snapshots) are off. Use them on a server started for development: in memory, or with --test-controls.',
        );
      }
      if (!store) return controlError(400, 'NOT_SUPPORTED', 'Scenarios, fixtures and snapshots need a SQLite database: a team server on PostgreSQL is shared by people, not a test\'s to change.');
      const rest = path.slice(controlPathPrefix.length);
      const scenario = scenarios?.control(request, path);
      if (scenario) return scenario;
      if (rest === 'data' || rest === 'snapshot' || rest === 'snapshot/restore') return data(request, rest, store);
      return controlError(404, 'NOT_FOUND', 'The control routes are /api/__otto/scenario, /api/__otto/data, /api/__otto/snapshot and /api/__otto/snapshot/restore.');
    }
    if (!scenarios || path === undefined) return route(request);
    await scenarios.ready;
    const override = scenarios.take(request.method, path);
    return override ? answerWithOverride(override, () => route(request)) : route(request);
  };
}
