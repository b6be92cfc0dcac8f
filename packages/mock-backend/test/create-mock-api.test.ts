import { customerSchema, totalCountHeader } from '@otto/api-contract';
import { openSqliteStore } from '@otto/sqlite-store';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMockApi } from '../src/create-mock-api';
import { createLogger } from '../src/logger';
import { latestSchemaVersion } from '../src/database/migrations';
import { capturingLogger, manualClock } from './helpers';

const threeYearsMs = 3 * 365 * 24 * 3600 * 1000;
const listAll = (api: Awaited<ReturnType<typeof createMockApi>>, limit = 1000) =>
  api.fetch(new Request(`http://localhost/api/customers?filterJson=${encodeURIComponent(JSON.stringify({ limit }))}`));

describe('createMockApi', () => {
  it('seeds 500 customers on first start, within the spec dates', async () => {
    const clock = manualClock();
    const api = await createMockApi({ now: clock.now });
    const res = await listAll(api);
    expect(res.headers.get(totalCountHeader)).toBe('500');
    const all = z.array(customerSchema).parse(await res.json());
    expect(all).toHaveLength(500);
    for (const c of all) {
      expect(c.full_name.length).toBeGreaterThan(0);
      expect(c.email).toContain('@');
      expect(c.phone).toMatch(/\d/);
      expect(c.created_dt).toBeGreaterThanOrEqual(clock.now() - threeYearsMs);
      expect(c.modified_dt).toBeGreaterThanOrEqual(c.created_dt);
      expect(c.modified_dt).toBeLessThanOrEqual(clock.now());
    }
    expect(api.info).toMatchObject({ mode: 'memory', seeded: { customers: 500 }, schemaVersion: latestSchemaVersion });
    expect(api.info.seeded.jobs).toBeGreaterThan(500);
    await api.close();
  });

  it('seeds the same customers for the same faker seed', async () => {
    const clock = manualClock();
    const a = await createMockApi({ now: clock.now, seed: { count: 20, fakerSeed: 42 } });
    const b = await createMockApi({ now: clock.now, seed: { count: 20, fakerSeed: 42 } });
    expect(await (await listAll(a)).json()).toEqual(await (await listAll(b)).json());
    await Promise.all([a.close(), b.close()]);
  });

  it('does not seed again a store that already has customers, and leaves a given store open', async () => {
    const store = await openSqliteStore({ storage: 'memory' });
    const first = await createMockApi({ store, seed: { count: 20 } });
    await first.close();
    expect(store.isOpen).toBe(true);
    const second = await createMockApi({ store });
    expect(second.info.seeded).toEqual({ customers: 0, jobs: 0 });
    expect((await listAll(second)).headers.get(totalCountHeader)).toBe('20');
    await second.close();
    await store.close();
  });

  it('seeds nothing with seed: false', async () => {
    const api = await createMockApi({ seed: false });
    expect((await listAll(api)).headers.get(totalCountHeader)).toBe('0');
    await api.close();
  });

  it('refuses a database whose schema is newer than the code, leaving it as it was', async () => {
    const store = await openSqliteStore({ storage: 'memory' });
    store.exec('CREATE TABLE future (v INTEGER); PRAGMA user_version = 99');
    await expect(createMockApi({ store })).rejects.toMatchObject({ code: 'SCHEMA_TOO_NEW' });
    expect(store.userVersion()).toBe(99);
    expect(store.get("SELECT name FROM sqlite_master WHERE name = 'customers'")).toBeUndefined();
    await store.close();
  });

  it('fails with DB migration failed and keeps the data when a migration cannot apply', async () => {
    const store = await openSqliteStore({ storage: 'memory' });
    // A table already named like one migration 1 creates makes it fail half way.
    store.exec("CREATE TABLE customers_fts (kept TEXT); INSERT INTO customers_fts VALUES ('mine')");
    await expect(createMockApi({ store })).rejects.toThrow(/^DB migration failed: migration 1 \(customers\)/);
    expect(store.userVersion()).toBe(0);
    expect(store.all('SELECT kept FROM customers_fts')).toEqual([{ kept: 'mine' }]);
    expect(store.get("SELECT name FROM sqlite_master WHERE name = 'customers'")).toBeUndefined();
    await store.close();
  });

  it('answers 503 after it was closed', async () => {
    const api = await createMockApi({ seed: false });
    await api.close();
    const res = await api.fetch(new Request('http://localhost/api/customers'));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});

describe('createLogger', () => {
  it('tags lines with otto and drops debug lines by default', () => {
    const { logger, lines } = capturingLogger();
    logger.debug('hidden');
    logger.warn('shown');
    expect(lines).toEqual(['[otto] shown']);
    const verbose: string[] = [];
    createLogger({ debug: true, sink: { ...console, debug: (...a: unknown[]) => verbose.push(a.join(' ')) } }).debug('x');
    expect(verbose).toEqual(['[otto] x']);
  });
});
