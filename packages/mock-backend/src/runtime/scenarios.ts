// Scenarios: answers of your own for the API's routes (a status, a body, a delay, a dropped
// connection) for one test, story or page session, then reset. Decision 0142.
import { apiBasePath } from '@otto/api-contract';
import { z } from 'zod';

/** Where the control routes live, below the API base: `/api/__otto/…`. Never one of Otto's paths. */
export const controlPathPrefix = '/__otto/';

/**
 * The longest delay a scenario may ask for. The relays in the browser answer 504 when the
 * database is silent for 10 s (decision 0012), so a longer delay would test the relay, not the app.
 * @example
 * await mockControl().use({ path: '*', delayMs: maxScenarioDelayMs }); // the slowest answers there are
 */
export const maxScenarioDelayMs = 8000;

const overrideSchema = z
  .object({
    method: z
      .string()
      .regex(/^[A-Za-z]+$/, 'An HTTP method, such as GET.')
      .transform((m) => m.toUpperCase())
      .optional(),
    path: z
      .string()
      .regex(/^(\*|\/[^?#]*)$/, 'A path below /api such as /customers or /customers/:id, or * for every route.'),
    status: z.number().int().min(200, 'A status from 200 to 599.').max(599, 'A status from 200 to 599.').optional(),
    body: z.unknown().optional(),
    headers: z
      .record(z.string(), z.string())
      .refine((h) => {
        try {
          new Headers(h);
          return true;
        } catch {
          return false;
        }
      }, 'Header names are tokens (letters, digits, - …) and values one line of text.')
      .optional(),
    delayMs: z.number().int().min(0).max(maxScenarioDelayMs, `At most ${maxScenarioDelayMs} ms: the browser's relays answer 504 after 10 s of silence.`).optional(),
    error: z.literal('network').optional(),
    times: z.number().int().min(1).optional(),
  })
  .strict()
  .refine((o) => !(o.error && (o.status !== undefined || o.body !== undefined)), 'A network error has no status or body.');

/**
 * One answer of your own for the requests that match `method` (any when left out) and `path`
 * (`/customers`, `/customers/:id`, `/notes`, or `*` for every route; below `/api`):
 * - `status` and/or `body` (JSON) and `headers`: answered instead of the route;
 * - `error: 'network'`: the request fails as a dropped connection does (`fetch` rejects);
 * - `delayMs` alone: the route answers as usual, that much later (a slow network);
 * - `times`: only the next N matching requests, then the override is gone.
 * @example
 * const override: MockOverride = { method: 'GET', path: '/customers', status: 500, body: { code: 'INTERNAL', message: 'Down for a test.' } };
 */
export type MockOverride = z.input<typeof overrideSchema>;

/**
 * The scenarios every backend knows by name, for `?otto-scenario=…` and `useScenario(name)`:
 * `slow` (every call 2 s later), `offline` (every call fails as with no network), `server-error`
 * (every call 500), `unauthorized` (every call 401) and `empty` (the customer and job lists empty).
 * @example
 * const names = Object.keys(builtInScenarios); // ['slow', 'offline', 'server-error', 'unauthorized', 'empty']
 */
export const builtInScenarios: Readonly<Record<string, readonly MockOverride[]>> = {
  slow: [{ path: '*', delayMs: 2000 }],
  offline: [{ path: '*', error: 'network' }],
  'server-error': [{ path: '*', status: 500, body: { code: 'INTERNAL', message: 'The server failed (the "server-error" scenario).' } }],
  unauthorized: [{ path: '*', status: 401, body: { code: 'UNAUTHORIZED', message: 'Sign in to continue (the "unauthorized" scenario).' } }],
  empty: [
    { method: 'GET', path: '/customers', body: [], headers: { 'X-Total-Count': '0' } },
    { method: 'GET', path: '/jobs', body: [], headers: { 'X-Total-Count': '0' } },
  ],
};

type Override = z.output<typeof overrideSchema>;

/**
 * Where a backend keeps what its control routes were told (the scenario in force, snapshots), by
 * key, so that it outlasts the backend: the DB worker keeps it in Cache Storage, where a reload or
 * the next owner tab finds it. By default it is kept in memory.
 * @example
 * const shelf: ControlShelf = memoryShelf();
 */
export interface ControlShelf {
  get(key: string): Promise<Uint8Array | undefined>;
  /** `undefined` removes the entry. */
  set(key: string, bytes: Uint8Array | undefined): Promise<void>;
}

/**
 * A `ControlShelf` in memory (the backend's life).
 * @example
 * const api = await createMockApi({ controlShelf: memoryShelf() });
 */
export function memoryShelf(): ControlShelf {
  const entries = new Map<string, Uint8Array>();
  return {
    get: async (key) => entries.get(key),
    async set(key, bytes) {
      if (bytes) entries.set(key, bytes);
      else entries.delete(key);
    },
  };
}

const scenarioKey = 'scenario';

/** What a request gets from the scenario in force: its override, or nothing (the route answers). */
export interface Scenarios {
  /** Settles once the scenario kept on the shelf (if any) is in force: await it before `take`. */
  readonly ready: Promise<void>;
  /** The override for this request, if one matches (a `times` override counts it). */
  take(method: string, path: string): Override | undefined;
  /** Answers a control request (`/api/__otto/scenario`), or undefined when it is not one. */
  control(request: Request, path: string): Promise<Response> | undefined;
}

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });

/** A JSON error in the contract's shape, for the control routes. */
export const controlError = (status: number, code: string, message: string, issues?: unknown) =>
  json(status, { code, message, ...(issues ? { issues } : {}) });

function pathMatches(pattern: string, path: string): boolean {
  if (pattern === '*') return true;
  const want = pattern.replace(/\/+$/, '').split('/');
  const got = path.replace(/\/+$/, '').split('/');
  return want.length === got.length && want.every((part, i) => part.startsWith(':') || part === got[i]);
}

/**
 * The scenario state of one backend: overrides in force (newest first) and the named scenarios
 * it knows (the built-in ones and `named`).
 */
export function createScenarios(
  named: Readonly<Record<string, readonly MockOverride[]>> = {},
  shelf: ControlShelf = memoryShelf(),
  onKept?: (name: string | null) => void,
): Scenarios {
  const known = { ...builtInScenarios, ...named };
  let name: string | null = null;
  let overrides: Override[] = [];
  // What another backend of this origin (the page before a reload, the previous owner) put in force.
  // One kept by another version, or damaged, is dropped: it must never stop the backend.
  const ready = shelf
    .get(scenarioKey)
    .then((bytes) => {
      if (!bytes) return;
      try {
        const kept = JSON.parse(new TextDecoder().decode(bytes)) as { name?: unknown; overrides?: unknown };
        overrides = (Array.isArray(kept.overrides) ? kept.overrides : []).map((o) => overrideSchema.parse(o));
        name = typeof kept.name === 'string' ? kept.name : null;
        if (overrides.length) onKept?.(name);
      } catch {
        overrides = [];
        name = null;
        return shelf.set(scenarioKey, undefined);
      }
    })
    .catch(() => undefined);
  /** Keeps the scenario for the next backend, one write after another; a failure to keep it only costs that. */
  let kept = Promise.resolve();
  const keep = () => {
    const bytes = overrides.length ? new TextEncoder().encode(JSON.stringify({ name, overrides })) : undefined;
    kept = kept.then(() => shelf.set(scenarioKey, bytes)).catch(() => undefined);
    return kept;
  };

  const parse = (list: readonly unknown[]) => list.map((o) => overrideSchema.parse(o));
  const state = () => ({ name, overrides, names: Object.keys(known) });

  async function control(request: Request): Promise<Response> {
    const method = request.method.toUpperCase();
    if (method === 'GET') return json(200, state());
    if (method === 'DELETE') {
      name = null;
      overrides = [];
      await keep();
      return json(200, state());
    }
    if (method !== 'PUT' && method !== 'POST') return controlError(405, 'METHOD_NOT_ALLOWED', 'GET, PUT, POST or DELETE.');
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return controlError(400, 'INVALID_JSON', 'The body must be JSON.');
    }
    try {
      if (method === 'POST') {
        // One more override, in front of those in force (as MSW's worker.use).
        overrides = [...parse([body]), ...overrides];
        await keep();
        return json(200, state());
      }
      const given = body as { name?: unknown; overrides?: unknown } | null;
      if (typeof given?.name === 'string') {
        const chosen = Object.hasOwn(known, given.name) ? known[given.name] : undefined;
        if (!chosen) return controlError(404, 'NOT_FOUND', `No scenario is called “${given.name}”. Known: ${Object.keys(known).join(', ')}.`);
        overrides = parse(chosen);
        name = given.name;
        await keep();
        return json(200, state());
      }
      if (Array.isArray(given?.overrides)) {
        overrides = parse(given.overrides);
        name = null;
        await keep();
        return json(200, state());
      }
      return controlError(400, 'VALIDATION_FAILED', 'Send { "name": "slow" } or { "overrides": [ … ] }.');
    } catch (error) {
      if (error instanceof z.ZodError) {
        const issues = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
        return controlError(400, 'VALIDATION_FAILED', 'The override needs attention.', issues);
      }
      throw error;
    }
  }

  return {
    ready,
    take(method, path) {
      const at = overrides.findIndex((o) => (o.method === undefined || o.method === method.toUpperCase()) && pathMatches(o.path, path));
      const found = overrides[at];
      if (!found) return undefined;
      if (found.times !== undefined) {
        overrides = found.times > 1 ? overrides.map((o, i) => (i === at ? { ...o, times: (o.times ?? 1) - 1 } : o)) : overrides.filter((_, i) => i !== at);
        void keep();
      }
      return found;
    },
    control(request, path) {
      return path === `${controlPathPrefix}scenario` ? ready.then(() => control(request)) : undefined;
    },
  };
}

/** The path below `/api` of a request, or undefined for a URL outside it. */
export function apiPathOf(url: string): string | undefined {
  try {
    const { pathname } = new URL(url);
    return pathname.startsWith(`${apiBasePath}/`) ? pathname.slice(apiBasePath.length) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Answers a request as its override says: after the delay, the override's answer, a network error
 * (`Response.error()`, which the relays and the HTTP server turn into a dropped connection), or
 * the route's own answer (`next`).
 */
export async function answerWithOverride(override: Override, next: () => Promise<Response>): Promise<Response> {
  if (override.delayMs) await new Promise((resolve) => setTimeout(resolve, override.delayMs));
  if (override.error === 'network') return Response.error();
  if (override.status === undefined && override.body === undefined) {
    if (!override.headers) return next();
    // Headers alone: the route's own answer, with these headers set on it.
    const answer = await next();
    const headers = new Headers(answer.headers);
    for (const [header, value] of Object.entries(override.headers)) headers.set(header, value);
    return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
  }
  const status = override.status ?? 200;
  const headers = new Headers(override.headers);
  const hasBody = override.body !== undefined && status !== 204 && status !== 205 && status !== 304;
  if (hasBody && !headers.has('content-type')) headers.set('content-type', 'application/json; charset=utf-8');
  return new Response(hasBody ? JSON.stringify(override.body) : null, { status, headers });
}
