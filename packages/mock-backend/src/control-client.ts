// mockControl: the control routes (/api/__otto/…) as functions, for tests and stories (decision 0142).
import type { MockFixture } from './database/fixtures';
import type { SeedData } from './database/seed-data';
import type { MockOverride } from './runtime/scenarios';

/**
 * Where `mockControl` sends its calls.
 * @example
 * const options: MockControlOptions = { baseUrl: 'http://127.0.0.1:8787', headers: { authorization: `Bearer ${token}` } };
 */
export interface MockControlOptions {
  /**
   * What sends the requests: `api.fetch` of `createMockApi` in Node, or the global `fetch`
   * (in a page, through the service worker; in Node, to `otto-mock-server`).
   * @default globalThis.fetch
   */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * The origin the API is at.
   * @default the page's origin in a browser, else http://localhost
   */
  baseUrl?: string;
  /** Sent with every call (the server's `Authorization` beyond loopback). */
  headers?: Record<string, string>;
}

/**
 * The scenario and data of a running mock backend, from a test or a story.
 * @example
 * const control: MockControl = mockControl({ fetch: api.fetch });
 */
export interface MockControl {
  /** Puts overrides in front of those in force (as MSW's `use`): until `reset`, or `times` requests. */
  use(...overrides: MockOverride[]): Promise<void>;
  /** Replaces what is in force with a named scenario (`slow`, `offline`, `server-error`, `unauthorized`, `empty`, or one of yours). */
  useScenario(name: string): Promise<void>;
  /** Every route answers as usual again. */
  reset(): Promise<void>;
  /** Replaces every customer and job with the fixture (or seed data); answers the counts. */
  loadData(fixture: MockFixture | SeedData): Promise<{ customers: number; jobs: number }>;
  /** Keeps the whole database under `name` (1–64 letters, digits, `_`, `-`): in memory in Node and on the server, in Cache Storage in the browser. */
  snapshot(name?: string): Promise<void>;
  /** Puts the database kept under `name` back, in milliseconds. */
  restoreSnapshot(name?: string): Promise<void>;
}

/**
 * The control routes of a mock backend as functions: scenarios (a status, a body, a delay or a
 * dropped connection for any route) and data per test (fixtures, snapshots put back in
 * milliseconds). The same calls reach `createMockApi` in Node, the in-browser backend (through
 * its service worker) and `otto-mock-server`.
 * @example
 * const control = mockControl({ fetch: api.fetch });
 * await control.use({ method: 'GET', path: '/customers', status: 500, body: { code: 'INTERNAL', message: 'Down' } });
 * // … the screen under test shows its error state …
 * await control.reset();
 */
export function mockControl(options: MockControlOptions = {}): MockControl {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const origin = options.baseUrl ?? (typeof location !== 'undefined' ? location.origin : 'http://localhost');

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await send(
      new Request(new URL(`/api/__otto/${path}`, origin), {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const answer = (await response.json().catch(() => ({}))) as T & { message?: string; issues?: { path: string; message: string }[] };
    if (!response.ok) {
      const issues = answer.issues?.map((i) => `${i.path}: ${i.message}`).join('; ');
      throw new Error(`The mock backend refused ${method} /api/__otto/${path} (${response.status}): ${answer.message ?? 'no message'}${issues ? ` (${issues})` : ''}`);
    }
    return answer;
  }

  return {
    async use(...overrides) {
      for (const override of [...overrides].reverse()) await call('POST', 'scenario', override);
    },
    async useScenario(name) {
      await call('PUT', 'scenario', { name });
    },
    async reset() {
      await call('DELETE', 'scenario');
    },
    loadData: (fixture) => call('PUT', 'data', fixture),
    async snapshot(name = 'default') {
      await call('POST', 'snapshot', { name });
    },
    async restoreSnapshot(name = 'default') {
      await call('POST', 'snapshot/restore', { name });
    },
  };
}
