// Seeding, fixtures and seed data load with indexes and triggers set aside and do the triggers'
// work set-based (bulk-load.ts): what they keep must be exactly what the triggers make row by row.
import { openSqliteStore, type SqliteStore } from '@otto/sqlite-store';
import { describe, expect, it } from 'vitest';
import { bulkLoad } from '../src/database/bulk-load';
import { FixtureError, loadFixture } from '../src/database/fixtures';
import { customerFtsRowsSql, migrations } from '../src/database/migrations';
import { seedDatabase } from '../src/database/seed';
import { exportSeedDatabase, settleSeedDatabase } from '../src/database/seed-data';

async function migrated(): Promise<SqliteStore> {
  const store = await openSqliteStore({ storage: 'memory' });
  store.migrate(migrations);
  return store;
}

function copyRows(from: SqliteStore, to: SqliteStore, table: 'customers' | 'jobs'): void {
  for (const row of from.all<Record<string, string | number | null>>(`SELECT * FROM ${table} ORDER BY id`)) {
    const columns = Object.keys(row);
    to.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, columns.map((c) => row[c] ?? null));
  }
}

/** Every token of a full-text index with its row, column and place (jobs_status_fts keeps no text of its own). */
function tokens(store: SqliteStore, index: string): unknown[] {
  store.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${index}_tokens USING fts5vocab(main, ${index}, instance)`);
  return store.all(`SELECT term, doc, col, offset FROM temp.${index}_tokens ORDER BY doc, col, offset`);
}

/** Everything the insert triggers keep, and the schema itself. */
function kept(store: SqliteStore) {
  return {
    customers_fts: tokens(store, 'customers_fts'),
    jobs_fts: tokens(store, 'jobs_fts'),
    jobs_status_fts: tokens(store, 'jobs_status_fts'),
    customer_count: store.all('SELECT * FROM customer_count'),
    customer_days: store.all('SELECT * FROM customer_days ORDER BY day'),
    job_counts: store.all('SELECT * FROM job_counts ORDER BY status'),
    paid_days: store.all('SELECT * FROM paid_days ORDER BY day'),
    version_stamp: store.all('SELECT * FROM version_stamp'),
    schema: store.all("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"),
  };
}

describe('a bulk load', () => {
  it('keeps what the insert triggers keep, row for row, and puts every index and trigger back', async () => {
    const bulk = await migrated();
    const schemaBefore = kept(bulk).schema;
    const counts = seedDatabase(bulk, { count: 400, fakerSeed: 7 }, Date.UTC(2026, 10, 27));
    expect(counts.jobs).toBeGreaterThan(400);
    // The same customers and jobs, inserted one at a time through the triggers.
    const oneByOne = await migrated();
    oneByOne.transaction(() => {
      copyRows(bulk, oneByOne, 'customers');
      copyRows(bulk, oneByOne, 'jobs');
    });
    const expected = kept(oneByOne);
    const actual = kept(bulk);
    for (const [what, rows] of Object.entries(expected)) {
      if (what !== 'schema') expect((rows as unknown[]).length, what).toBeGreaterThan(0);
      expect((actual as Record<string, unknown>)[what], what).toEqual(rows);
    }
    expect(actual.schema).toEqual(schemaBefore);
    for (const index of ['customers_fts', 'jobs_fts', 'jobs_status_fts']) bulk.run(`INSERT INTO ${index} (${index}) VALUES ('integrity-check')`);
    expect(bulk.get<{ integrity_check: string }>('PRAGMA integrity_check')?.integrity_check).toBe('ok');
    await bulk.close();
    await oneByOne.close();
  });

  it('a fixture with archived rows: the same as row by row (an extension\'s insert trigger keeps that path)', async () => {
    const fixture = {
      customers: [
        { id: 1, full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000', created_dt: 86_400_000 * 3 },
        { id: 2, full_name: 'Grace Hopper', email: 'grace@example.com', phone: '555-0100', archived_dt: 5 },
      ],
      jobs: [
        { customer_id: 1, title: 'Boiler service', status: 'invoiced', price_cents: 12_000, invoiced_dt: 10 },
        { customer_id: 1, title: 'Gutter cleaning', status: 'paid', price_cents: 8_000, paid_dt: 86_400_000 * 2 },
        { customer_id: 2, title: 'Fence repair', status: 'invoiced', price_cents: 3_000, invoiced_dt: 10, archived_dt: 11 },
        { customer_id: 2, title: 'Deck staining', status: 'paid', price_cents: 1_000, paid_dt: 86_400_000, archived_dt: 12 },
      ],
    };
    const bulk = await migrated();
    const oneByOne = await migrated();
    for (const store of [bulk, oneByOne]) {
      store.run("INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES ('Old', '1', 'old@example.com', 1, 1)");
    }
    bulk.transaction(() => loadFixture(bulk, fixture, 100));
    // Row by row: the same fixture with a trigger of an extension in place, which bulkLoad does not
    // know, so it loads through the triggers.
    oneByOne.exec('CREATE TABLE notes_seen (id INTEGER); CREATE TRIGGER notes_after_customer AFTER INSERT ON customers BEGIN INSERT INTO notes_seen VALUES (new.id); END;');
    oneByOne.transaction(() => loadFixture(oneByOne, fixture, 100));
    expect(oneByOne.all('SELECT id FROM notes_seen')).toEqual([{ id: 1 }, { id: 2 }]);
    oneByOne.exec('DROP TRIGGER notes_after_customer; DROP TABLE notes_seen');
    expect(kept(bulk)).toEqual(kept(oneByOne));
    // Each invoiced or paid job got its invoice, numbered as invoiced; the invoiced ones are owed.
    expect(bulk.all('SELECT number, total_cents, balance_cents FROM invoices ORDER BY number')).toEqual([
      { number: 1, total_cents: 12_000, balance_cents: 12_000 },
      { number: 2, total_cents: 3_000, balance_cents: 3_000 },
      { number: 3, total_cents: 1_000, balance_cents: 0 },
      { number: 4, total_cents: 8_000, balance_cents: 0 },
    ]);
    await bulk.close();
    await oneByOne.close();
  });

  it('adds to what was there: rows loaded over earlier ones, the same as row by row', async () => {
    const source = await migrated();
    seedDatabase(source, { count: 120, fakerSeed: 11 }, Date.UTC(2026, 10, 27));
    const earlier = await migrated();
    seedDatabase(earlier, { count: 30, fakerSeed: 12 }, Date.UTC(2026, 10, 20));
    const newRows = (store: SqliteStore) =>
      store.transaction(() => {
        for (const table of ['customers', 'jobs'] as const) {
          for (const row of source.all<Record<string, string | number | null>>(`SELECT * FROM ${table} ORDER BY id`)) {
            // After the earlier rows: ids moved up, jobs with their customers.
            const moved = { ...row, id: Number(row.id) + 1000, ...(table === 'jobs' ? { customer_id: Number(row.customer_id) + 1000 } : {}) };
            const columns = Object.keys(moved);
            store.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, columns.map((c) => moved[c as keyof typeof moved] ?? null));
          }
        }
      });
    const bulk = await openSqliteStore({ storage: 'memory', initialData: earlier.exportDatabase() });
    const oneByOne = await openSqliteStore({ storage: 'memory', initialData: earlier.exportDatabase() });
    bulk.transaction(() => bulkLoad(bulk, () => newRows(bulk)));
    newRows(oneByOne);
    expect(kept(bulk)).toEqual(kept(oneByOne));
    expect(bulk.get('SELECT n FROM customer_count')).toEqual({ n: 150 });
    for (const store of [source, earlier, bulk, oneByOne]) await store.close();
  });

  it('answers a date the day totals cannot take as a fixture error, in words, with nothing changed', async () => {
    const store = await migrated();
    store.run("INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES ('Old', '1', 'old@example.com', 1, 1)");
    expect(() =>
      store.transaction(() => loadFixture(store, { customers: [{ full_name: 'Ada', email: 'ada@example.com', phone: '1', created_dt: 1.5 }] }, 100)),
    ).toThrow(FixtureError);
    expect(store.all('SELECT full_name FROM customers')).toEqual([{ full_name: 'Old' }]);
    await store.close();
  });

  it("an import's deferred customer rows (customerFtsRowsSql) are the rows the trigger makes", async () => {
    const source = await migrated();
    seedDatabase(source, { count: 200, jobs: false, fakerSeed: 3 }, Date.UTC(2026, 10, 27));
    const imported = await migrated();
    imported.transaction(() => {
      imported.run("INSERT INTO fts_deferred (entity) VALUES ('customers')");
      copyRows(source, imported, 'customers');
      imported.run("DELETE FROM fts_deferred WHERE entity = 'customers'");
      imported.run(customerFtsRowsSql, [0]);
    });
    const oneByOne = await migrated();
    oneByOne.transaction(() => copyRows(source, oneByOne, 'customers'));
    expect(tokens(imported, 'customers_fts')).toEqual(tokens(oneByOne, 'customers_fts'));
    expect(tokens(imported, 'customers_fts').length).toBeGreaterThan(1000);
    for (const store of [source, imported, oneByOne]) await store.close();
  });

  it('leaves everything as it was when the load fails', async () => {
    const store = await migrated();
    const before = kept(store);
    expect(() =>
      store.transaction(() =>
        bulkLoad(store, () => {
          store.run("INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES ('Ada', '1', 'ada@example.com', 1, 1)");
          throw new Error('refused');
        }),
      ),
    ).toThrow('refused');
    expect(kept(store)).toEqual(before);
    expect(store.get('SELECT count(*) AS n FROM customers')).toEqual({ n: 0 });
    await store.close();
  });
});

describe('a first-start file settling its dates', () => {
  it('moves every date set-based to the same rows, day totals and stamp as row by row, indexes and triggers back', async () => {
    const made = Date.UTC(2026, 9, 1);
    const source = await migrated();
    seedDatabase(source, { count: 300, fakerSeed: 5 }, made);
    // Archived rows keep their archived dates apart (they move only where set).
    source.exec('UPDATE customers SET archived_dt = modified_dt + 1 WHERE id % 17 = 0; UPDATE jobs SET archived_dt = modified_dt + 1 WHERE id % 13 = 0');
    const file = exportSeedDatabase(source, made);
    const bulk = await openSqliteStore({ storage: 'memory', initialData: file });
    const oneByOne = await openSqliteStore({ storage: 'memory', initialData: file });
    const schemaBefore = kept(bulk).schema.filter((s) => (s as { name: string }).name !== 'otto_seed_origin');
    const now = Date.UTC(2026, 10, 27, 9, 30);
    expect(bulk.transaction(() => settleSeedDatabase(bulk, now))).toEqual({ customers: 300, jobs: expect.any(Number) as number });
    // An extension's trigger the set-based path does not know: the dates move row by row.
    oneByOne.exec('CREATE TABLE seen (id INTEGER); CREATE TRIGGER seen_after_update AFTER UPDATE OF modified_dt ON customers BEGIN INSERT INTO seen VALUES (new.id); END;');
    oneByOne.transaction(() => settleSeedDatabase(oneByOne, now));
    expect(oneByOne.get<{ n: number }>('SELECT count(*) AS n FROM seen')?.n).toBe(300);
    oneByOne.exec('DROP TRIGGER seen_after_update; DROP TABLE seen');
    // Row by row leaves days whose count went to zero; set-based leaves them out: the same totals.
    const settled = (store: SqliteStore) => ({
      ...kept(store),
      customer_days: store.all('SELECT * FROM customer_days WHERE n != 0 ORDER BY day'),
      paid_days: store.all('SELECT * FROM paid_days WHERE n != 0 OR cents != 0 ORDER BY day'),
      customers: store.all('SELECT * FROM customers ORDER BY id'),
      jobs: store.all('SELECT * FROM jobs ORDER BY id'),
    });
    const expected = settled(oneByOne);
    const actual = settled(bulk);
    for (const [what, rows] of Object.entries(expected)) expect((actual as Record<string, unknown>)[what], what).toEqual(rows);
    expect(actual.schema).toEqual(schemaBefore);
    expect((actual.customers[0] as { created_dt: number }).created_dt).toBe((source.get<{ created_dt: number }>('SELECT created_dt FROM customers ORDER BY id')?.created_dt ?? 0) + now - made);
    expect(bulk.get<{ integrity_check: string }>('PRAGMA integrity_check')?.integrity_check).toBe('ok');
    for (const store of [source, bulk, oneByOne]) await store.close();
  });
});
