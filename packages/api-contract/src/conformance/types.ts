import type { ConformanceRule } from './rule-context';
/**
 * Any function that answers a standard `Request` with a `Response`: the global `fetch`, or a
 * backend's own handler such as `createMockApi().fetch`.
 * @example
 * const viaHttp: ConformanceFetch = fetch;
 * const inProcess: ConformanceFetch = (request) => api.fetch(request);
 */
export type ConformanceFetch = (request: Request) => Promise<Response>;

/**
 * Options of `runConformance`.
 * @example
 * const options: ConformanceOptions = { fetch, baseUrl: 'http://localhost:8787/api' };
 */
export interface ConformanceOptions {
  /** How requests reach the backend under test. */
  fetch: ConformanceFetch;
  /**
   * Where the API answers, including its base path: `http://localhost:8787/api`. Paths outside it
   * (for the `Not found` rule) are derived by dropping a trailing `/api`.
   */
  baseUrl: string;
  /**
   * Only run the rules whose id starts with one of these prefixes (`['customers.search']`).
   * @default every rule
   */
  only?: readonly string[];
  /**
   * How long one request may take before its rule fails, in milliseconds.
   * @default 10000
   */
  timeoutMs?: number;
  /**
   * A bearer token sent with every request (`Authorization: Bearer …`), for a server that wants one
   * (`otto-mock-server` beyond loopback, or started with `--token`).
   */
  token?: string;
  /** Called as each rule finishes, for progress output. */
  onResult?: (result: ConformanceRuleResult) => void;
  /**
   * Rules of your own (for your own routes), run after the kit's; `only` selects among them too.
   * @default none
   */
  rules?: readonly ConformanceRule[];
}

/**
 * The outcome of one rule.
 * @example
 * const failure: ConformanceRuleResult = { id: 'customers.update.patch', title: 'PATCH …', ok: false, detail: 'PATCH /api/customers/7 → 404' };
 */
export interface ConformanceRuleResult {
  /** Stable id, `area.topic.case`. */
  id: string;
  /** What the rule requires, in one sentence. */
  title: string;
  ok: boolean;
  /** Why it failed (the request and what came back), or why it was skipped. */
  detail?: string;
  /** True when the rule could not apply to this backend (it still counts as passed). */
  skipped?: boolean;
  durationMs: number;
}

/**
 * What `runConformance` found.
 * @example
 * const report: ConformanceReport = await runConformance({ fetch, baseUrl });
 * if (report.failed > 0) process.exitCode = 1;
 */
export interface ConformanceReport {
  baseUrl: string;
  rules: ConformanceRuleResult[];
  passed: number;
  failed: number;
  durationMs: number;
}

/**
 * The id and title of one rule of the kit, as listed by `conformanceRules`.
 * @example
 * const rule: ConformanceRuleInfo = { id: 'customers.list.default-limit', title: 'A list without a limit answers 10 rows.' };
 */
export interface ConformanceRuleInfo {
  id: string;
  title: string;
}
