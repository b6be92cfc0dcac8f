import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '@otto/sqlite-store';
import { createMockApi, exportSeedData, exportSeedDatabase } from '../src';
import { migrations } from '../src/database/migrations';

const day = 86_400_000;
const made = Date.UTC(2026, 0, 1);
const started = made + 40 * day;

describe('seed data made ahead of time', () => {
  it('fills an empty database with the same customers and jobs, every date moved to the moment of seeding', async () => {
    const source = await createMockApi({ seed: { count: 40, fakerSeed: 7 }, now: () => made });
    const data = exportSeedData(source.store, made);
    const api = await createMockApi({ seed: { data: async () => JSON.parse(JSON.stringify(data)) }, now: () => started });
    try {
      expect(api.info.seeded).toEqual(source.info.seeded);
      const row = (db: typeof api.store) =>
        db.all<{ full_name: string; created_dt: number; modified_dt: number }>('SELECT full_name, created_dt, modified_dt FROM customers ORDER BY id');
      const before = row(source.store);
      const after = row(api.store);
      expect(after.map((c) => c.full_name)).toEqual(before.map((c) => c.full_name));
      expect(after.map((c) => c.created_dt - 40 * day)).toEqual(before.map((c) => c.created_dt));
      // The spec's rules hold at the moment of seeding.
      for (const c of after) {
        expect(c.created_dt).toBeGreaterThanOrEqual(started - 3 * 365 * day);
        expect(c.modified_dt).toBeGreaterThanOrEqual(c.created_dt);
        expect(c.modified_dt).toBeLessThanOrEqual(started);
      }
      const jobs = (db: typeof api.store) =>
        db.all<{ title: string; full_name: string; scheduled_start_dt: number | null }>(
          'SELECT j.title, c.full_name, j.scheduled_start_dt FROM jobs j JOIN customers c ON c.id = j.customer_id ORDER BY j.id',
        );
      expect(jobs(api.store).map((j) => [j.title, j.full_name])).toEqual(jobs(source.store).map((j) => [j.title, j.full_name]));
      expect(jobs(api.store).map((j) => j.scheduled_start_dt && j.scheduled_start_dt - 40 * day)).toEqual(
        jobs(source.store).map((j) => j.scheduled_start_dt),
      );
      // Searchable like any customer (the full-text index is filled by its triggers).
      const name = before[0]!.full_name.split(' ')[1]!;
      const res = await api.fetch(new Request(`http://x/api/customers?filterJson=${encodeURIComponent(JSON.stringify({ queryText: name }))}`));
      expect(((await res.json()) as { full_name: string }[]).some((c) => c.full_name === before[0]!.full_name)).toBe(true);
    } finally {
      await api.close();
      await source.close();
    }
  });

  it('refuses what is not seed data, and leaves the database empty', async () => {
    await expect(createMockApi({ seed: { data: async () => ({ customers: [] }) as never } })).rejects.toThrow(/not in Otto’s seed format/);
  });

  it('is not imported into a database that has customers', async () => {
    const source = await createMockApi({ seed: { count: 3, jobs: false, fakerSeed: 1 }, now: () => made });
    const data = exportSeedData(source.store, made);
    const api = await createMockApi({ store: source.store, seed: { data } });
    expect(api.info.seeded).toEqual({ customers: 0, jobs: 0 });
    await source.close();
  });
});

describe('a first-start database file made ahead of time', () => {
  const rows = (db: { all<T>(sql: string): T[] }) => ({
    customers: db.all<Record<string, unknown>>('SELECT * FROM customers ORDER BY id'),
    jobs: db.all<Record<string, unknown>>('SELECT * FROM jobs ORDER BY id'),
    counts: db.all<Record<string, unknown>>('SELECT * FROM job_counts ORDER BY status'),
  });
  const moved = (list: Record<string, unknown>[], by: number) =>
    list.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, k.endsWith('_dt') && typeof v === 'number' ? v + by : v])));

  it('starts a database that does not exist yet as the same rows, every date moved to the moment it starts', async () => {
    const source = await createMockApi({ seed: { count: 40, fakerSeed: 7 }, now: () => made });
    // An archived customer and job: their archived_dt moves too (the others' stays empty).
    source.store.run('UPDATE customers SET archived_dt = modified_dt WHERE id = (SELECT max(id) FROM customers)');
    source.store.run('UPDATE jobs SET archived_dt = modified_dt WHERE id = (SELECT max(id) FROM jobs)');
    const before = rows(source.store);
    expect(before.customers.filter((c) => c.archived_dt !== null)).toHaveLength(1);
    const file = exportSeedDatabase(source.store, made);
    // The way the DB worker does it: the store puts the file in place before its first open.
    const store = createSqliteStore({ storage: 'memory', newDatabase: async () => file });
    const api = await createMockApi({ store, seed: { file }, now: () => started });
    try {
      expect(api.info.seeded).toEqual(source.info.seeded);
      const after = rows(api.store);
      expect(after.customers).toEqual(moved(before.customers, 40 * day));
      expect(after.jobs).toEqual(moved(before.jobs, 40 * day));
      expect(after.counts).toEqual(before.counts);
      for (const c of after.customers as { created_dt: number; modified_dt: number }[]) {
        expect(c.created_dt).toBeGreaterThanOrEqual(started - 3 * 365 * day);
        expect(c.modified_dt).toBeGreaterThanOrEqual(c.created_dt);
        expect(c.modified_dt).toBeLessThanOrEqual(started);
      }
      // The mark is gone (a backup never carries it), the schema is the latest, search works.
      expect(api.store.all(`SELECT name FROM sqlite_schema WHERE name = 'otto_seed_origin'`)).toEqual([]);
      expect(api.store.userVersion()).toBe(migrations.length);
      const name = String(before.customers[0]!.full_name).split(' ')[1]!;
      const res = await api.fetch(new Request(`http://x/api/customers?filterJson=${encodeURIComponent(JSON.stringify({ queryText: name }))}`));
      expect(((await res.json()) as { full_name: string }[]).some((c) => c.full_name === before.customers[0]!.full_name)).toBe(true);
      // A second start of the same database moves nothing.
      const again = await createMockApi({ store: api.store, seed: { file }, now: () => started + day });
      expect(again.info.seeded).toEqual({ customers: 0, jobs: 0 });
      expect(rows(api.store).customers).toEqual(after.customers);
    } finally {
      await api.close();
      await store.close();
      await source.close();
    }
  });

  it('fills an empty store it was not created with', async () => {
    const source = await createMockApi({ seed: { count: 12, fakerSeed: 3 }, now: () => made });
    const file = exportSeedDatabase(source.store, made);
    const api = await createMockApi({ seed: { file: async () => file }, now: () => started });
    try {
      expect(api.info.seeded).toEqual(source.info.seeded);
      expect(rows(api.store).customers.length).toBe(12);
    } finally {
      await api.close();
      await source.close();
    }
  });
});
