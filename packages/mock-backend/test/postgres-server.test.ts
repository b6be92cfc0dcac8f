import { conformanceRules, formatReport, runConformance } from '@otto/api-contract/conformance';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestPostgres } from '@otto/postgres-testing';
import { describeIfPostgres, sharedTestPostgres } from '@otto/postgres-testing/vitest';
import { createMockServer, type MockServer } from '../src/node';
import { capturingLogger } from './helpers';

describeIfPostgres('otto-mock-server on PostgreSQL', () => {
  let pg: TestPostgres;
  let server: MockServer;
  beforeAll(async () => {
    pg = await sharedTestPostgres();
    // Existing data on purpose, as for SQLite: the kit must work against a backend that holds customers.
    server = await createMockServer({ port: 0, database: pg.connectionString, seed: { count: 60, fakerSeed: 9 }, logger: capturingLogger().logger });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await pg?.stop();
  });

  it('passes the whole contract kit, unchanged', async () => {
    const report = await runConformance({ fetch: (request) => fetch(request), baseUrl: server.url });
    expect(report.failed, formatReport(report)).toBe(0);
    expect(report.passed).toBe(conformanceRules.length);
    expect(report.rules.filter((r) => r.skipped)).toEqual([]);
  }, 180_000);

  it('answers no test control: a team server is not a test\'s to change (decision 0164)', async () => {
    expect(server.testControls).toBe(false);
    for (const [method, path] of [['PUT', 'data'], ['POST', 'snapshot'], ['PUT', 'scenario']] as const) {
      const res = await fetch(`${server.url}/__otto/${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'server-error', customers: [] }) });
      expect(res.status, `${method} /__otto/${path}`).toBe(404);
      expect(((await res.json()) as { message: string }).message).toMatch(/keeps a team's data/);
    }
    expect((await fetch(`${server.url}/customers`)).status).toBe(200);
  });
});
