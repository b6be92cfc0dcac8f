import type { z } from 'zod';
import { apiErrorSchema } from '../api-error';
import { totalCountHeader } from '../limits';
import type { ConformanceFetch } from './types';

/** A rule's requirement was not met; the message says what was sent and what came back. */
export class RuleFailure extends Error {
  override readonly name = 'RuleFailure';
}

/**
 * Fails the rule with `detail` unless `condition` holds.
 * @example
 * check(reply.status === 200, () => `listing notes: ${reply.describe()}`);
 */
export function check(condition: unknown, detail: string | (() => string)): asserts condition {
  if (!condition) throw new RuleFailure(typeof detail === 'function' ? detail() : detail);
}

/**
 * One answer, read once.
 * @example
 * const reply: Reply = await api.call('GET', '/notes');
 */
export interface Reply {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: unknown;
  /** `GET /api/customers → 404 "Not found"`, for failure details. */
  describe(): string;
}

/**
 * What `KitClient.call` sends besides the method and path.
 * @example
 * const options: CallOptions = { body: { text: 'Call Ada back' }, headers: { 'If-Match': '"1"' } };
 */
export interface CallOptions {
  /** A value sent as JSON. */
  body?: unknown;
  /** Text sent as it is, with a JSON content type. */
  rawBody?: string;
  /** Sent as the filterJson query parameter (JSON-encoded unless a string). */
  filter?: unknown;
  /** Extra request headers (`If-Match`). */
  headers?: Record<string, string>;
}

/**
 * The kit's client for the API under test (`ctx.api` of a rule).
 * @example
 * const reply = await api.call('POST', '/notes', { body: { text: 'hello' } });
 */
export interface KitClient {
  /** Calls `path` below the API base (`/customers`). */
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** Calls an absolute URL (for paths outside the API). */
  callUrl(method: string, url: string): Promise<Reply>;
  /** The origin and path of the API base without its trailing `/api`; undefined when it has none. */
  readonly outsidePrefix: string | undefined;
  /** The path of the API base (`/api`). */
  readonly apiPath: string;
}

export function createKitClient(fetchFn: ConformanceFetch, baseUrl: string, timeoutMs: number, token?: string): KitClient {
  const base = new URL(baseUrl.replace(/\/+$/, ''));
  const apiPath = base.pathname.replace(/\/+$/, '');
  const outsidePrefix = apiPath.endsWith('/api') ? `${base.origin}${apiPath.slice(0, -'/api'.length)}` : undefined;

  async function send(method: string, url: string, init: RequestInit, label: string): Promise<Reply> {
    let response: Response;
    try {
      const headers = new Headers(init.headers);
      if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
      response = await fetchFn(new Request(url, { method, ...init, headers, signal: AbortSignal.timeout(timeoutMs) }));
    } catch (error) {
      throw new RuleFailure(`${method} ${label} failed without an answer: ${(error as Error)?.message ?? error}`);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const status = response.status;
    return {
      method,
      path: label,
      status,
      headers: response.headers,
      text,
      json,
      describe: () => `${method} ${label} → ${status} ${excerpt(text)}`,
    };
  }

  return {
    outsidePrefix,
    apiPath,
    call(method, path, options = {}) {
      let query = '';
      if (options.filter !== undefined) {
        const raw = typeof options.filter === 'string' ? options.filter : JSON.stringify(options.filter);
        query = `?filterJson=${encodeURIComponent(raw)}`;
      }
      const init: RequestInit = {};
      if (options.body !== undefined || options.rawBody !== undefined) {
        init.body = options.rawBody ?? JSON.stringify(options.body);
        init.headers = { 'content-type': 'application/json' };
      }
      if (options.headers) init.headers = { ...(init.headers as Record<string, string> | undefined), ...options.headers };
      const label = `${apiPath}${path}${query ? ` filterJson=${excerpt(decodeURIComponent(query.slice(12)), 80)}` : ''}`;
      return send(method, `${base.origin}${apiPath}${path}${query}`, init, label);
    },
    callUrl(method, url) {
      return send(method, url, {}, new URL(url).pathname);
    },
  };
}

function excerpt(text: string, max = 160): string {
  const flat = JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
  return text === '' ? '(empty body)' : flat;
}

/** Fails unless the answer has this status. */
export function expectStatus(reply: Reply, status: number, why = ''): void {
  check(reply.status === status, () => `expected ${status}${why ? ` (${why})` : ''}: ${reply.describe()}`);
}

/** Fails unless the body parses with `schema`; returns the parsed value. */
export function expectBody<S extends z.ZodType>(reply: Reply, schema: S, what: string): z.infer<S> {
  const parsed = schema.safeParse(reply.json);
  check(parsed.success, () => `expected ${what}: ${reply.describe()}`);
  return parsed.data;
}

/** Fails unless the answer is the contract's JSON error with this status and code. */
export function expectError(reply: Reply, status: number, code: string): z.infer<typeof apiErrorSchema> {
  expectStatus(reply, status, `JSON error ${code}`);
  const body = expectBody(reply, apiErrorSchema, `a JSON error { code: '${code}', message }`);
  check(body.code === code, () => `expected code ${code}: ${reply.describe()}`);
  check(body.message.trim() !== '', () => `expected a message a person can read: ${reply.describe()}`);
  return body;
}

/** Fails unless the answer is the spec's plain `404 Not found`. */
export function expectNotFoundText(reply: Reply): void {
  check(reply.status === 404 && reply.text === 'Not found', () => `expected 404 with the text "Not found": ${reply.describe()}`);
}

/** Fails unless the answer carries a whole-number X-Total-Count; returns it. */
export function expectTotal(reply: Reply): number {
  const raw = reply.headers.get(totalCountHeader);
  check(raw !== null && /^\d+$/.test(raw), () => `expected a whole-number ${totalCountHeader} header, got ${raw === null ? 'none' : JSON.stringify(raw)}: ${reply.describe()}`);
  return Number(raw);
}

/** Waits a little so that a later write gets a later timestamp. */
export function tick(ms = 5): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
