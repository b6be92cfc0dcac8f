// The MSW peer's data: the very customers and jobs Otto seeds (same seed code, same faker seed,
// same clock), captured into plain arrays instead of SQL tables.
import { jobStatuses, type Customer, type Job, type JobStatus } from '@otto/api-contract';
import { seedDatabase } from '@otto/mock-backend';
import type { Database, SqlValue } from '@otto/sqlite-store';

/** What the MSW peer serves. */
export interface ArrayData {
  customers: Customer[];
  jobs: Job[];
}

/**
 * Runs Otto's seedDatabase against a stand-in database that keeps what it inserts in arrays.
 * @example
 * const { customers, jobs } = seedArrays(500, true, 42, Date.now());
 */
export function seedArrays(n: number, withJobs: boolean, fakerSeed: number, now: number): ArrayData {
  const customers: Customer[] = [];
  const jobs: Job[] = [];
  const db: Database = {
    exec() {},
    run(sql, values = []) {
      const v = values as SqlValue[];
      if (sql.includes('INSERT INTO customers')) {
        const [full_name, phone, email, created_dt, modified_dt] = v as [string, string, string, number, number];
        customers.push({ id: String(customers.length + 1), full_name, phone, email, created_dt, modified_dt });
        return { changes: 1, lastInsertRowid: customers.length };
      }
      const [customerId, title, description, service_address, status, assignee, start, end, price, created, modified, ...stamps] = v;
      const status_dates = Object.fromEntries(jobStatuses.map((s, i) => [s, (stamps[i] as number | null) ?? null])) as Job['status_dates'];
      jobs.push({
        id: String(jobs.length + 1),
        customer_id: String(customerId),
        customer_name: customers[Number(customerId) - 1]?.full_name ?? '',
        title: String(title),
        description: String(description),
        service_address: String(service_address),
        status: status as JobStatus,
        assignee: String(assignee),
        scheduled_start_dt: start as number | null,
        scheduled_end_dt: end as number | null,
        price_cents: Number(price),
        created_dt: Number(created),
        modified_dt: Number(modified),
        status_dates,
        // Otto's jobs carry it since archiving (decision 0091); seeded jobs are never archived.
        archived_dt: null,
      });
      return { changes: 1, lastInsertRowid: jobs.length };
    },
    // seedJobs reads the customers back: id, full_name, created_dt, in id order.
    all: <T>() => customers.map((c) => ({ id: Number(c.id), full_name: c.full_name, created_dt: c.created_dt })) as T[],
    get: () => undefined,
    transaction: (fn) => fn(),
  };
  seedDatabase(db, { count: n, jobs: withJobs, fakerSeed }, now);
  return { customers, jobs };
}

/** The first-start data of the app's build (the rows of its `otto-seed.sqlite3.gz`, see `exportSeedData`): rows per table, and when they were made. */
interface SeedFile {
  generatedAt: number;
  customers: { columns: string[]; rows: (string | number | null)[][] };
  jobs: { columns: string[]; rows: (string | number | null)[][] };
}

/**
 * The app's own first-start data (the rows of its build's `otto-seed.sqlite3.gz`) as the MSW peer's arrays, every
 * date moved by `now − generatedAt` as Otto moves them when it imports the file.
 * @example
 * const data = arraysFromSeedFile(exportSeedData(store, madeAt), Date.now());
 */
export function arraysFromSeedFile(file: SeedFile, now: number): ArrayData {
  const shift = now - file.generatedAt;
  const objects = (table: SeedFile['customers']) =>
    table.rows.map((row) =>
      Object.fromEntries(table.columns.map((c, i) => [c, c.endsWith('_dt') && typeof row[i] === 'number' ? (row[i] as number) + shift : row[i]])),
    );
  const customers: Customer[] = objects(file.customers).map((c) => ({
    id: String(c.id),
    full_name: String(c.full_name),
    phone: String(c.phone),
    email: String(c.email),
    created_dt: Number(c.created_dt),
    modified_dt: Number(c.modified_dt),
  }));
  const names = new Map(customers.map((c) => [c.id, c.full_name]));
  const jobs: Job[] = objects(file.jobs).map((j) => ({
    id: String(j.id),
    customer_id: String(j.customer_id),
    customer_name: names.get(String(j.customer_id)) ?? '',
    title: String(j.title),
    description: String(j.description ?? ''),
    service_address: String(j.service_address ?? ''),
    status: j.status as JobStatus,
    assignee: String(j.assignee ?? ''),
    scheduled_start_dt: (j.scheduled_start_dt as number | null) ?? null,
    scheduled_end_dt: (j.scheduled_end_dt as number | null) ?? null,
    price_cents: Number(j.price_cents ?? 0),
    created_dt: Number(j.created_dt),
    modified_dt: Number(j.modified_dt),
    status_dates: Object.fromEntries(jobStatuses.map((s) => [s, (j[`${s}_dt`] as number | null) ?? null])) as Job['status_dates'],
    archived_dt: (j.archived_dt as number | null | undefined) ?? null,
  }));
  return { customers, jobs };
}
