import { conformanceRules, formatReport, runConformance } from '@otto/api-contract/conformance';
import type { TestPostgres } from '@otto/postgres-testing';
import { describeIfPostgres, sharedTestPostgres } from '@otto/postgres-testing/vitest';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMockApi } from '../src/create-mock-api';
import { latestSchemaVersion } from '../src/database/migrations';
import { postgresDatabase } from '../src/postgres/postgres-database';
import { defineExtension } from '../src/runtime/extensions';
import { createSqliteStore } from '@otto/sqlite-store';
import { capturingLogger } from './helpers';

/**
 * Decision 0122: one composition root. `createMockApi` runs on PostgreSQL when given
 * `database: postgresDatabase(…)`, with the same router and handlers (the conformance kit passes
 * through `api.fetch`), and refuses what needs SQLite in words.
 */
describeIfPostgres('createMockApi on PostgreSQL', () => {
  let pg: TestPostgres;

  beforeAll(async () => {
    pg = await sharedTestPostgres();
  }, 120_000);
  afterAll(async () => {
    await pg?.stop();
  });

  it('answers every rule of the conformance kit, with info from PostgreSQL', async () => {
    const url = await pg.createDatabase('otto_one_root');
    const api = await createMockApi({ database: postgresDatabase({ connectionString: url, poolSize: 4 }), seed: { count: 20, fakerSeed: 3 }, logger: capturingLogger().logger });
    try {
      expect(api.info.mode).toBe('postgres');
      expect(api.info.seeded.customers).toBe(20);
      expect(api.info.schemaVersion).toBe(latestSchemaVersion);
      expect('store' in api).toBe(false);
      const report = await runConformance({ fetch: (request) => api.fetch(request), baseUrl: 'http://localhost/api' });
      expect(report.failed, formatReport(report)).toBe(0);
      expect(report.passed).toBe(conformanceRules.length);
    } finally {
      await api.close();
    }
    // Closed: answers 503 in words, and closing again is harmless.
    const closed = await api.fetch(new Request('http://localhost/api/customers'));
    expect(closed.status).toBe(503);
    await api.close();
  }, 120_000);

  it('refuses extensions, a SQLite file as seed, and a store next to a database, before opening anything', async () => {
    const database = postgresDatabase({ connectionString: pg.connectionString });
    const notes = defineExtension({ name: 'notes', migrations: [], routes: [] });
    await expect(createMockApi({ database, extensions: [notes], seed: false })).rejects.toThrow(/Extensions need a SQLite store/);
    await expect(createMockApi({ database, seed: { file: new Uint8Array() } })).rejects.toThrow(/seed with \{ count \} or \{ data \}/);
    const store = createSqliteStore({ storage: 'memory' });
    await expect(createMockApi({ database, store } as never)).rejects.toThrow(/either database or store/);
  });
});
