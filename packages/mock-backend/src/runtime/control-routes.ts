// The control routes below /api/__otto/: scenarios, fixtures and snapshots (decision 0142).
import type { ChangeEvent } from '@otto/api-contract';
import type { SqliteStore } from '@otto/sqlite-store';
import { FixtureError, loadFixture } from '../database/fixtures';
import { answerWithOverride, apiPathOf, controlError, controlPathPrefix, type ControlShelf, type Scenarios } from './scenarios';

interface ControlOptions {
  scenarios: Scenarios;
  /** The SQLite store, for fixtures and snapshots (a PostgreSQL database has none). */
  store: SqliteStore | undefined;
  now: () => number;
  publish: (event: ChangeEvent) => void;
  /** Where snapshots are kept. */
  shelf: ControlShelf;
}

const ok = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });

async function jsonBody(request: Request): Promise<{ body: unknown } | Response> {
  const text = await request.text();
  if (!text.trim()) return { body: {} };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return controlError(400, 'INVALID_JSON', 'The body must be JSON.');
  }
}

/**
 * Wraps a backend's `fetch` with the control routes and the scenario in force: a control request
 * is answered here, a request a scenario overrides gets the override's answer, and every other
 * request goes to `route`.
 */
export function withControl({ scenarios, store, now, publish, shelf }: ControlOptions, route: (request: Request) => Promise<Response>) {
  const reset = () => publish({ entity: 'database', kind: 'reset', ids: [] });

  async function data(request: Request, path: string): Promise<Response> {
    if (!store) return controlError(400, 'NOT_SUPPORTED', 'Fixtures and snapshots need a SQLite database (not PostgreSQL).');
    if (request.method.toUpperCase() !== (path === 'data' ? 'PUT' : 'POST')) {
      return controlError(405, 'METHOD_NOT_ALLOWED', path === 'data' ? 'PUT a fixture.' : 'POST, with { "name" } or nothing.');
    }
    const read = await jsonBody(request);
    if (read instanceof Response) return read;
    if (path === 'data') {
      try {
        const counts = store.transaction(() => loadFixture(store, read.body as never, now()));
        reset();
        return ok(counts);
      } catch (error) {
        if (error instanceof FixtureError || (error instanceof Error && /seed format/.test(error.message))) return controlError(400, 'VALIDATION_FAILED', error.message);
        throw error;
      }
    }
    const given = (read.body as { name?: unknown } | null)?.name;
    const name = typeof given === 'string' && given ? given : 'default';
    if (path === 'snapshot') {
      // A whole database as bytes, put back in milliseconds.
      await shelf.set(`snapshot/${name}`, store.exportDatabase());
      return ok({ name });
    }
    const bytes = await shelf.get(`snapshot/${name}`);
    if (!bytes) return controlError(404, 'NOT_FOUND', `No snapshot is called “${name}”: POST /api/__otto/snapshot first.`);
    if (!store.replaceDatabase) return controlError(400, 'NOT_SUPPORTED', 'This store cannot put a snapshot back.');
    await store.replaceDatabase(bytes);
    reset();
    return ok({ name });
  }

  return async function fetchWithControl(request: Request): Promise<Response> {
    const path = apiPathOf(request.url);
    if (path?.startsWith(controlPathPrefix)) {
      const rest = path.slice(controlPathPrefix.length);
      const scenario = scenarios.control(request, path);
      if (scenario) return scenario;
      if (rest === 'data' || rest === 'snapshot' || rest === 'snapshot/restore') return data(request, rest);
      return controlError(404, 'NOT_FOUND', 'The control routes are /api/__otto/scenario, /api/__otto/data, /api/__otto/snapshot and /api/__otto/snapshot/restore.');
    }
    await scenarios.ready;
    const override = path === undefined ? undefined : scenarios.take(request.method, path);
    return override ? answerWithOverride(override, () => route(request)) : route(request);
  };
}
