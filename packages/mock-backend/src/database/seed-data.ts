import type { Database, SqliteStore } from '@otto/sqlite-store';
import { backfillInvoicesSql } from './migrations/invoices-sql';
import { bulkLoad, moveDates } from './bulk-load';

type Cell = string | number | null;

/**
 * Rows of one table: the column names, then the values in that order.
 * @example
 * const table: SeedTable = { columns: ['id', 'full_name'], rows: [[1, 'Ada Lovelace']] };
 */
export interface SeedTable {
  columns: string[];
  rows: Cell[][];
}

/**
 * A first-start database made ahead of time (at build time, say, so that no data generator ships
 * to the browser): the customers and jobs `seedDatabase` made, with the moment they were made.
 * @example
 * const data: SeedData = exportSeedData(api.store, Date.now());
 */
export interface SeedData {
  format: 'otto-seed';
  version: 1;
  /** When the data was made (epoch ms): its dates move by (start time − this) when imported. */
  generatedAt: number;
  customers: SeedTable;
  jobs: SeedTable;
}

const selectAll = (db: Database, table: 'customers' | 'jobs'): SeedTable => {
  const rows = db.all<Record<string, Cell>>(`SELECT * FROM ${table} ORDER BY id`);
  const columns = rows[0] ? Object.keys(rows[0]) : [];
  return { columns, rows: rows.map((row) => columns.map((c) => row[c] ?? null)) };
};

/**
 * Reads the customers and jobs of a (freshly seeded) database as seed data, to be imported on
 * another database's first start with `importSeedData` (or `createMockApi({ seed: { data } })`).
 * @example
 * const api = await createMockApi({ seed: { count: 500, fakerSeed: 1 }, now: () => t });
 * writeFileSync('otto-seed.json', JSON.stringify(exportSeedData(api.store, t)));
 */
export function exportSeedData(db: Database, generatedAt: number): SeedData {
  return { format: 'otto-seed', version: 1, generatedAt, customers: selectAll(db, 'customers'), jobs: selectAll(db, 'jobs') };
}

function isSeedData(value: unknown): value is SeedData {
  const data = value as Partial<SeedData> | null;
  const table = (t: unknown) => {
    const { columns, rows } = (t ?? {}) as Partial<SeedTable>;
    return Array.isArray(columns) && columns.every((c) => typeof c === 'string' && /^[a-z_]+$/.test(c)) && Array.isArray(rows);
  };
  return data?.format === 'otto-seed' && data.version === 1 && typeof data.generatedAt === 'number' && table(data.customers) && table(data.jobs);
}

/**
 * Fills an empty database from seed data in the caller's transaction, every date (`*_dt`) moved
 * forward by `now − generatedAt`, so the spec's rules hold at the moment of seeding (created
 * within the last 3 years, modified between created and now). Jobs keep their customers.
 * @example
 * db.transaction(() => importSeedData(db, data, Date.now())); // { customers: 500, jobs: 1014 }
 */
export function importSeedData(db: Database, data: unknown, now: number): { customers: number; jobs: number } {
  if (!isSeedData(data)) throw new Error('The seed data is not in Otto’s seed format (otto-seed, version 1).');
  const shift = now - data.generatedAt;
  const insert = (table: 'customers' | 'jobs', { columns, rows }: SeedTable, map: (row: Cell[]) => Cell[]) => {
    const kept = columns.map((c, i) => [c, i] as const).filter(([c]) => c !== 'id');
    const sql = `INSERT INTO ${table} (${kept.map(([c]) => c).join(', ')}) VALUES (${kept.map(() => '?').join(', ')})`;
    const ids = new Map<Cell, number>();
    const idAt = columns.indexOf('id');
    for (const source of rows) {
      const row = map(source);
      const values = kept.map(([c, i]) => (c.endsWith('_dt') && typeof row[i] === 'number' ? (row[i] as number) + shift : (row[i] ?? null)));
      ids.set(source[idAt] ?? null, db.run(sql, values).lastInsertRowid);
    }
    return ids;
  };
  bulkLoad(db, () => {
    const customerIds = insert('customers', data.customers, (row) => row);
    const customerAt = data.jobs.columns.indexOf('customer_id');
    insert('jobs', data.jobs, (row) => row.map((cell, i) => (i === customerAt ? (customerIds.get(cell) ?? null) : cell)));
  });
  // Seed data carries customers and jobs: the invoiced and paid ones get their invoices here, as
  // migration 18 gives them (and as PostgreSQL's seed does, so both stores number them alike).
  db.exec(backfillInvoicesSql('sqlite'));
  return { customers: data.customers.rows.length, jobs: data.jobs.rows.length };
}

/** The table a seed database carries until its first start moves its dates (then it is dropped). */
const seedMarker = 'otto_seed_origin';

/**
 * A first-start database file made ahead of time: the whole (freshly seeded) database as the bytes
 * of a SQLite file, marked with the moment it was made. Put in place of a database that does not
 * exist yet (`serveMockApiInWorker({ seed: { file } })`, `createMockApi({ seed: { file } })`), it
 * needs no migration and no inserts: its first start only moves its dates (`settleSeedDatabase`).
 * Adds the mark to `store`'s database: use a throwaway store. `compact` (default true) merges the
 * full-text indexes and vacuums first, for the smallest file.
 * @example
 * const api = await createMockApi({ seed: { count: 500, fakerSeed: 1 }, now: () => t });
 * writeFileSync('otto-seed.sqlite3', exportSeedDatabase(api.store, t));
 */
export function exportSeedDatabase(store: SqliteStore, generatedAt: number, options: { compact?: boolean } = {}): Uint8Array {
  store.exec(`DROP TABLE IF EXISTS ${seedMarker}; CREATE TABLE ${seedMarker} (generated_at INTEGER NOT NULL)`);
  store.run(`INSERT INTO ${seedMarker} (generated_at) VALUES (?)`, [generatedAt]);
  // `compact: false`: the file as it is (a VACUUM of a database of gigabytes takes minutes and as
  // much again in temporary space).
  if (options.compact === false) return store.exportDatabase();
  // The smallest file: each full-text index merged into one segment, no free pages.
  const fts = store.all<{ name: string }>(`SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE % USING fts5%'`);
  for (const { name } of fts) store.run(`INSERT INTO ${name} (${name}) VALUES ('optimize')`);
  store.exec('VACUUM');
  return store.exportDatabase();
}

/**
 * On the first start of a database made by `exportSeedDatabase`: moves every date (`*_dt`) of its
 * customers and jobs forward by `now − the moment it was made`, in one statement per table (and one
 * for its archived rows), so the spec's rules hold from this moment (created within the last 3
 * years, modified between created and now), and drops the mark. Returns what it holds, or
 * undefined for any other database.
 * @example
 * const seeded = db.transaction(() => settleSeedDatabase(db, Date.now())); // { customers: 500, jobs: 1014 }
 */
export function settleSeedDatabase(db: Database, now: number): { customers: number; jobs: number } | undefined {
  const marked = db.get<{ n: number }>(`SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name = ?`, [seedMarker]);
  if (!marked?.n) return undefined;
  const origin = db.get<{ generated_at: number }>(`SELECT generated_at FROM ${seedMarker}`);
  const shift = origin ? now - origin.generated_at : 0;
  const count = (table: 'customers' | 'jobs') => db.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)?.n ?? 0;
  const dates = (table: 'customers' | 'jobs') =>
    db.all<{ name: string }>(`SELECT name FROM pragma_table_info('${table}') WHERE name LIKE '%\\_dt' ESCAPE '\\'`).map(({ name }) => name);
  const columns = { customers: dates('customers'), jobs: dates('jobs') };
  if (shift !== 0) {
    moveDates(db, shift, columns);
    // Its invoices (made from its jobs by migration 18's rule) made again from the moved jobs: the
    // same invoices, dated as PostgreSQL's seed dates them from the same jobs.
    db.exec('DELETE FROM payments; DELETE FROM invoice_jobs; DELETE FROM invoices; UPDATE business_settings SET next_invoice_number = 1 WHERE k = 1');
    db.exec(backfillInvoicesSql('sqlite'));
  }
  db.exec(`DROP TABLE ${seedMarker}`);
  return { customers: count('customers'), jobs: count('jobs') };
}
