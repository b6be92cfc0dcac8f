import { createMockApi } from '../src/create-mock-api';
import { createLogger } from '../src/logger';
import type { MockApiOptions } from '../src/types';

export interface Call {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** A clock that the test moves by hand. */
export function manualClock(start = Date.UTC(2026, 10, 1)) {
  let t = start;
  return { now: () => t, advance: (ms = 1000) => (t += ms), set: (v: number) => (t = v) };
}

/** Collects what the backend logs, to assert on it. */
export function capturingLogger() {
  const lines: string[] = [];
  const push = (...parts: unknown[]) => lines.push(parts.map(String).join(' '));
  const logger = createLogger({ sink: { debug: push, info: push, warn: push, error: push } });
  return { logger, lines };
}

export async function startApi(options: MockApiOptions = {}) {
  const clock = manualClock();
  const log = capturingLogger();
  const api = await createMockApi({ now: clock.now, logger: log.logger, seed: { count: 0 }, ...options });

  async function call(method: string, path: string, body?: unknown, init: RequestInit = {}): Promise<Call> {
    const hasBody = body !== undefined;
    const res = await api.fetch(
      new Request(`http://localhost${path}`, {
        method,
        ...(hasBody ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
        headers: hasBody ? { 'content-type': 'application/json' } : {},
        ...init,
      }),
    );
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  const list = (filter?: unknown) =>
    call('GET', filter === undefined ? '/api/customers' : `/api/customers?filterJson=${encodeURIComponent(JSON.stringify(filter))}`);

  const create = (fields: { full_name: string; email: string; phone: string }) => {
    clock.advance();
    return call('POST', '/api/customers', fields);
  };

  return { api, clock, log, call, list, create };
}

export type TestApi = Awaited<ReturnType<typeof startApi>>;
