import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestPostgres } from '@otto/postgres-testing';
import { describeIfPostgres, sharedTestPostgres } from '@otto/postgres-testing/vitest';
import { createMockApi } from '../src/create-mock-api';
import { createPostgresApi } from '../src/postgres/create-postgres-api';
import { capturingLogger } from './helpers';

/**
 * Text with a NUL character (U+0000): PostgreSQL text cannot hold it (22021), and SQLite cut the
 * text there. Both backends answer 400 VALIDATION_FAILED naming the field (decision 0112), and a
 * search for it is just a search.
 */

interface Api {
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
}

const json = { 'content-type': 'application/json' };

async function call(api: Api, method: string, path: string, body?: unknown) {
  const res = await api.fetch(new Request(`http://localhost/api${path}`, { method, headers: json, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }));
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, unknown>, text };
}

describeIfPostgres('text with NUL characters, on SQLite and on PostgreSQL', () => {
  let pg: TestPostgres;
  const apis: [string, Api][] = [];
  beforeAll(async () => {
    pg = await sharedTestPostgres();
    apis.push(['SQLite', await createMockApi({ seed: false, logger: capturingLogger().logger })]);
    apis.push(['PostgreSQL', await createPostgresApi({ connectionString: pg.connectionString, seed: false, logger: capturingLogger().logger })]);
  }, 120_000);
  afterAll(async () => {
    for (const [, api] of apis) await api.close();
    await pg?.stop();
  });

  it('every write of a customer or job field with NUL answers 400 naming the field; nothing is saved', async () => {
    for (const [name, api] of apis) {
      const good = { full_name: 'Nul Tester', email: 'nul@example.com', phone: '555 0100' };
      const customer = (await call(api, 'POST', '/customers', good)).body as { id: string };
      const job = (await call(api, 'POST', '/jobs', { customer_id: customer.id, title: 'Clean job' })).body as { id: string };
      const writes: [string, string, unknown, string][] = [
        ['POST', '/customers', { ...good, full_name: 'A\u0000B' }, 'full_name'],
        ['POST', '/customers', { ...good, email: 'a\u0000@example.com' }, 'email'],
        ['POST', '/customers', { ...good, phone: '555\u00000100' }, 'phone'],
        ['PUT', `/customers/${customer.id}`, { ...good, full_name: 'Renamed\u0000' }, 'full_name'],
        ['PATCH', `/customers/${customer.id}`, { ...good, full_name: '\u0000Renamed' }, 'full_name'],
        ['POST', '/jobs', { customer_id: customer.id, title: 'T\u0000' }, 'title'],
        ['POST', '/jobs', { customer_id: customer.id, title: 'T', description: 'line\u0000two' }, 'description'],
        ['POST', '/jobs', { customer_id: customer.id, title: 'T', service_address: '1 Main\u0000St' }, 'service_address'],
        ['POST', '/jobs', { customer_id: customer.id, title: 'T', assignee: 'Bo\u0000b' }, 'assignee'],
        ['PATCH', `/jobs/${job.id}`, { description: '\u0000' }, 'description'],
      ];
      for (const [method, path, body, field] of writes) {
        const reply = await call(api, method, path, body);
        const what = `${name} ${method} ${path} ${field}: ${reply.text}`;
        expect(reply.status, what).toBe(400);
        expect(reply.body.code, what).toBe('VALIDATION_FAILED');
        const issues = reply.body.issues as { path: string; message: string }[];
        expect(issues.map((i) => i.path), what).toContain(field);
        expect(issues.find((i) => i.path === field)?.message, what).toMatch(/NUL/);
      }
      // Imports take the same rules, row by row: the row is refused in words, nothing 500s.
      const imported = await call(api, 'POST', '/customers/import', { rows: [{ full_name: 'Imp\u0000orted', email: 'imp@example.com', phone: '555 0101' }] });
      expect(imported.status, `${name} import: ${imported.text}`).toBeLessThan(500);
      expect(imported.text, `${name} import`).toMatch(/NUL/);
      const list = await call(api, 'GET', `/customers?filterJson=${encodeURIComponent(JSON.stringify({ limit: 1000 }))}`);
      expect((list.body as unknown as { full_name: string }[]).map((c) => c.full_name), name).toEqual(['Nul Tester']);
      // A search with NUL is just a search (the contract kit's hostile strings).
      const search = await call(api, 'GET', `/customers?filterJson=${encodeURIComponent(JSON.stringify({ queryText: 'Nul\u0000' }))}`);
      expect(search.status, name).toBe(200);
    }
  }, 60_000);
});
