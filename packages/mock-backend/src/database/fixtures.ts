// Data per test: a fixture replaces every record at once (decision 0142).
import type { Database } from '@otto/sqlite-store';
import { bulkLoad } from './bulk-load';
import { backfillInvoicesSql } from './migrations/invoices-sql';
import { importSeedData, type SeedData } from './seed-data';

type Cell = string | number | null;
type Row = Record<string, Cell | undefined>;

/**
 * The records a test starts from: customers and jobs as plain objects, in the database's column
 * names (`full_name`, `customer_id`, `price_cents`, `scheduled_start_dt`…). Left out: `id` counts
 * from 1 in the order given, `created_dt` and `modified_dt` are now, a job's `status` is `quote`.
 * A job's `customer_id` is the id of a customer of the fixture. Seed data (`exportSeedData`) is
 * taken as well.
 * @example
 * const fixture: MockFixture = {
 *   customers: [{ id: 1, full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000' }],
 *   jobs: [{ customer_id: 1, title: 'Boiler service', status: 'scheduled', price_cents: 12000 }],
 * };
 */
export interface MockFixture {
  customers?: Row[];
  jobs?: Row[];
}

/** What a fixture cannot hold, in words (answered 400 by the control route). */
export class FixtureError extends Error {}

/** Tables of records and of what was done with them: emptied before a fixture is loaded. */
const recordTables = ['payments', 'invoice_jobs', 'invoices', 'job_moves', 'jobs', 'customer_details', 'customers', 'import_rows', 'imports', 'request_log'] as const;

function columnsOf(db: Database, table: 'customers' | 'jobs'): Set<string> {
  return new Set(db.all<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`).map((c) => c.name));
}

function insertRows(db: Database, table: 'customers' | 'jobs', rows: readonly Row[], defaults: (row: Row, known: Set<string>) => Row): number {
  const known = columnsOf(db, table);
  rows.forEach((given, index) => {
    if (given === null || typeof given !== 'object' || Array.isArray(given)) throw new FixtureError(`${table}[${index}] is not an object.`);
    const row = { ...defaults(given, known), ...given };
    const columns = Object.keys(row).filter((c) => row[c] !== undefined);
    const unknown = columns.find((c) => !known.has(c));
    if (unknown) throw new FixtureError(`${table}[${index}] has “${unknown}”, which is not a column of ${table} (${[...known].join(', ')}).`);
    const bad = columns.find((c) => !['string', 'number'].includes(typeof row[c]) && row[c] !== null);
    if (bad) throw new FixtureError(`${table}[${index}].${bad} must be a string, a number or null.`);
    try {
      db.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, columns.map((c) => row[c] as Cell));
    } catch (error) {
      throw new FixtureError(`${table}[${index}] was refused by the database: ${(error as Error).message}`);
    }
  });
  return rows.length;
}

/**
 * Replaces every customer and job (and what was logged about them) with `fixture`, in one
 * transaction: a fixture the database refuses changes nothing. Counts, totals and search follow
 * (the schema's triggers keep them).
 * @example
 * db.transaction(() => loadFixture(db, { customers: [{ full_name: 'Ada', email: 'ada@example.com', phone: '1' }] }, Date.now()));
 */
export function loadFixture(db: Database, fixture: MockFixture | SeedData, now: number): { customers: number; jobs: number } {
  if (fixture === null || typeof fixture !== 'object' || Array.isArray(fixture)) throw new FixtureError('A fixture is an object: { "customers": [ … ], "jobs": [ … ] }.');
  for (const table of recordTables) db.run(`DELETE FROM ${table}`);
  // The records are replaced whole: the invoices' numbers start again (the backfill below numbers them).
  db.run('UPDATE business_settings SET next_invoice_number = 1 WHERE k = 1');
  if ((fixture as SeedData).format === 'otto-seed') {
    try {
      return importSeedData(db, fixture, now);
    } catch (error) {
      throw new FixtureError(`The seed data could not be loaded: ${(error as Error).message}`);
    }
  }
  const { customers = [], jobs = [], ...rest } = fixture as MockFixture;
  const extra = Object.keys(rest)[0];
  if (extra) throw new FixtureError(`A fixture has “customers” and “jobs”, not “${extra}”.`);
  if (!Array.isArray(customers) || !Array.isArray(jobs)) throw new FixtureError('“customers” and “jobs” are arrays.');
  // Indexes and triggers set aside while the rows go in (a fixture is often large). What the
  // database refuses once the rows are in (a day total of a date that is not whole milliseconds, an
  // extension's unique index built again) is the fixture's to fix, in words: a 400, not a 500.
  try {
    return withInvoices(db, loadRows(db, customers, jobs, now));
  } catch (error) {
    if (error instanceof FixtureError) throw error;
    throw new FixtureError(`The fixture was refused by the database: ${(error as Error).message}`);
  }
}

/** The invoiced and paid jobs' invoices and payments, as migration 18 gives them (decision 0161). */
function withInvoices<T>(db: Database, loaded: T): T {
  db.exec(backfillInvoicesSql('sqlite'));
  return loaded;
}

function loadRows(db: Database, customers: Row[], jobs: Row[], now: number): { customers: number; jobs: number } {
  return bulkLoad(db, () => {
    const made = insertRows(db, 'customers', customers, () => ({ created_dt: now, modified_dt: now }));
    const placed = insertRows(db, 'jobs', jobs, (row, known) => {
      const status = typeof row.status === 'string' ? row.status : 'quote';
      const created = typeof row.created_dt === 'number' ? row.created_dt : now;
      // When the job reached its status (a status the schema does not know is refused by its check).
      const reached = known.has(`${status}_dt`) ? { [`${status}_dt`]: created } : {};
      return { status, created_dt: created, modified_dt: created, ...reached };
    });
    return { customers: made, jobs: placed };
  });
}
