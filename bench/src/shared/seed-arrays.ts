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
