import { createHash } from 'node:crypto';
import { apiErrorSchema, matchRoute, type RouteDefinition } from '@otto/api-contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../src/create-mock-api';
import type { MockApi } from '../src/types';
import { capturingLogger } from './helpers';

// Thousands of generated requests against one live API; after each batch the database must be
// intact and nothing a failed request touched may have changed.

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND'] as const;

const id = fc.oneof(
  fc.integer({ min: -3, max: 60 }).map(String),
  fc.constantFrom('0', '1e3', '9007199254740993', '%00', '%ZZ', '..', 'counts', '1%2F2', 'NaN'),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

const path = fc.oneof(
  { arbitrary: fc.constantFrom('/api/customers', '/api/jobs', '/api/jobs/counts'), weight: 6 },
  { arbitrary: fc.integer({ min: 1, max: 40 }).map((i) => `/api/customers/${i}`), weight: 4 },
  { arbitrary: fc.integer({ min: 1, max: 60 }).map((i) => `/api/jobs/${i}`), weight: 4 },
  { arbitrary: id.map((i) => `/api/customers/${i}`), weight: 1 },
  { arbitrary: id.map((i) => `/api/jobs/${i}`), weight: 1 },
  { arbitrary: fc.string({ maxLength: 30 }).map((s) => `/api/${encodeURIComponent(s)}`), weight: 1 },
  {
    arbitrary: fc.constantFrom('/api/', '/api', '/', '/customers', '/api/customers/1/jobs', '/api//customers', '/API/customers', '/api/%E0%A4%A'),
    weight: 1,
  },
);

const pollution = fc.constantFrom(
  '{"__proto__":{"polluted":true},"full_name":"a","email":"a@b.co","phone":"1"}',
  '{"constructor":{"prototype":{"polluted":true}},"queryText":"x"}',
  '{"__proto__":null}',
);

const jsonText = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.record(
    {
      full_name: fc.oneof(fc.string({ maxLength: 300 }), fc.integer(), fc.constant(null)),
      email: fc.oneof(fc.emailAddress(), fc.string({ maxLength: 20 })),
      phone: fc.oneof(fc.string({ maxLength: 50 }), fc.constant('555 0100')),
      id: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()),
      customer_id: fc.oneof(fc.integer({ min: 1, max: 30 }).map(String), fc.string({ maxLength: 4 })),
      title: fc.string({ maxLength: 130 }),
      status: fc.constantFrom('quote', 'scheduled', 'in_progress', 'completed', 'invoiced', 'paid', 'cancelled', 'x'),
      price_cents: fc.oneof(fc.integer(), fc.double(), fc.constant(-1)),
      scheduled_start_dt: fc.oneof(fc.integer({ min: 0, max: 2e12 }), fc.constant(null)),
      scheduled_end_dt: fc.oneof(fc.integer({ min: 0, max: 2e12 }), fc.constant(null)),
    },
    { requiredKeys: [] },
  ).map((v) => JSON.stringify(v)),
  pollution,
  fc.integer({ min: 1, max: 3000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.string({ maxLength: 40 }),
);

const body = fc.oneof(
  { arbitrary: jsonText.map((text) => new TextEncoder().encode(text)), weight: 8 },
  fc.uint8Array({ maxLength: 64 }), // often invalid UTF-8
  fc.constant('huge' as const), // built in send(), so a failure report stays readable
  fc.constant(undefined),
);

const query = fc.oneof(
  fc.constant(''),
  jsonText.map((text) => `?filterJson=${encodeURIComponent(text)}`),
  fc.record(
    {
      queryText: fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('"', '*', 'NEAR(', "O'Brien", '😀', 'x'.repeat(250))),
      limit: fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.double()),
      offset: fc.oneof(fc.integer({ min: -5, max: 100 }), fc.double()),
      status: fc.constantFrom('paid', 'quote', 'nope'),
      customerId: fc.oneof(fc.integer({ min: 0, max: 40 }).map(String), fc.string({ maxLength: 3 })),
    },
    { requiredKeys: [] },
  ).map((f) => `?filterJson=${encodeURIComponent(JSON.stringify(f))}`),
  fc.string({ maxLength: 20 }).map((s) => `?${s}`),
);

const method = fc.oneof({ arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH'), weight: 6 }, { arbitrary: fc.constantFrom(...methods), weight: 1 });
const request = fc.record({ method, path, query, body });

let api: MockApi;
const log = capturingLogger();
const counts = { requests: 0, byStatus: new Map<number, number>() };

beforeAll(async () => {
  api = await createMockApi({ seed: { count: 25, fakerSeed: 9 }, logger: log.logger });
});
afterAll(async () => {
  await api.close();
  console.info(`hostile input: ${counts.requests} requests`, Object.fromEntries(counts.byStatus));
});

let wholeRowsSql: string | undefined;
let last: { changes: number; hash: string } | undefined;

const totalChanges = () => api.store.get<{ n: number }>('SELECT total_changes() AS n')!.n;

/** A hash of every column of every row of every table the API writes, search indexes included. */
function fingerprint(): string {
  wholeRowsSql ??= `SELECT ${['customers', 'jobs', 'customers_fts', 'jobs_fts']
    .map((table) => {
      const columns = api.store.all<{ name: string }>('SELECT name FROM pragma_table_info(?)', [table]).map((c) => `"${c.name}"`);
      // One JSON array per row, in rowid order (the rowid keys the FTS rows too).
      return `(SELECT group_concat(json_array(rowid, ${columns.join(', ')}), char(10) ORDER BY rowid) FROM ${table}) AS ${table}`;
    })
    .join(', ')}`;
  const changes = totalChanges();
  const hash = createHash('sha256').update(JSON.stringify(api.store.get(wholeRowsSql))).digest('hex');
  last = { changes, hash };
  return hash;
}

/**
 * The fingerprint before a request: the last one taken, when SQLite has counted no row written
 * since (total_changes() counts every insert, update and delete, triggers included). This only
 * saves time; the check after the request always hashes the rows again.
 */
function fingerprintBefore(): string {
  return last && last.changes === totalChanges() ? last.hash : fingerprint();
}

function expectIntact() {
  expect(api.store.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  api.store.run("INSERT INTO customers_fts (customers_fts) VALUES ('integrity-check')");
  api.store.run("INSERT INTO jobs_fts (jobs_fts) VALUES ('integrity-check')");
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

const huge = new TextEncoder().encode(`{"full_name":"${'x'.repeat(70_000)}","email":"a@b.co","phone":"1"}`);

async function send(r: { method: string; path: string; query: string; body: Uint8Array | 'huge' | undefined }) {
  const hasBody = r.body !== undefined && !['GET', 'HEAD'].includes(r.method);
  const before = fingerprintBefore();
  const res = await api.fetch(
    new Request(`http://localhost${r.path}${r.query}`, { method: r.method, ...(hasBody ? { body: (r.body === 'huge' ? huge : r.body) as BodyInit } : {}) }),
  );
  counts.requests++;
  counts.byStatus.set(res.status, (counts.byStatus.get(res.status) ?? 0) + 1);
  const text = await res.text();
  const label = `${r.method} ${r.path}${r.query.slice(0, 80)} → ${res.status} ${text.slice(0, 120)}`;
  expect(res.status, label).toBeLessThan(500);

  const match = (() => {
    try {
      return matchRoute(r.method, new URL(`http://localhost${r.path}`).pathname.slice(4));
    } catch {
      return { kind: 'no-route' as const };
    }
  })();
  if (res.status === 404 && text === 'Not found') {
    // The spec's plain-text answer for unknown paths and methods.
  } else if (res.status >= 400) {
    expect(apiErrorSchema.safeParse(JSON.parse(text)).success, label).toBe(true);
  } else {
    expect(match.kind, label).toBe('match');
    const route = (match as { route: RouteDefinition }).route;
    expect(route.response.safeParse(JSON.parse(text)).success, label).toBe(true);
  }
  if (res.status >= 300 || r.method === 'GET' || text === 'null') expect(fingerprint(), label).toBe(before);
}

describe('hostile input', () => {
  it('fingerprints field contents, not only ids and dates', () => {
    const row = api.store.get<{ id: number; phone: string }>('SELECT id, phone FROM customers ORDER BY id LIMIT 1');
    expect(row).toBeDefined();
    const before = fingerprint();
    api.store.run('UPDATE customers SET phone = ? WHERE id = ?', [`${row!.phone} `, row!.id]);
    expect(fingerprint()).not.toBe(before);
    api.store.run('UPDATE customers SET phone = ? WHERE id = ?', [row!.phone, row!.id]);
    expect(fingerprint()).toBe(before);
  });

  it('never answers 5xx, always answers in the contract, and keeps the database intact', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 40, maxLength: 60 }), async (batch) => {
        for (const r of batch) await send(r);
        expectIntact();
      }),
      { numRuns: 60, seed: 20261122 },
    );
    expect(counts.requests).toBeGreaterThan(2000);
  }, 120_000);
});
