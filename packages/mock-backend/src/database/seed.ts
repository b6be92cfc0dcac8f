import { Faker, base, en } from '@faker-js/faker';
import type { Database } from '@otto/sqlite-store';
import { bulkLoad } from './bulk-load';
import { backfillInvoicesSql } from './migrations/invoices-sql';
import { seedJobs } from './seed-jobs';

const threeYearsMs = 3 * 365 * 24 * 60 * 60 * 1000;

/**
 * Options of `seedDatabase` (and `seed` of `createMockApi`).
 * @example
 * const api = await createMockApi({ seed: { count: 100, jobs: false, fakerSeed: 42 } });
 */
export interface SeedOptions {
  /**
   * How many customers to create.
   * @default 500
   */
  count?: number;
  /**
   * Whether the customers get a history of jobs.
   * @default true
   */
  jobs?: boolean;
  /** Makes the generated data the same on every run. */
  fakerSeed?: number;
}

/**
 * Fills an empty database in one transaction: random customers (a generated name, email and phone,
 * created_dt within the last 3 years, modified_dt between created_dt and now; spec section 3), and
 * a plausible history of jobs for them.
 * @example
 * seedDatabase(db, { count: 500, fakerSeed: 1 }, Date.now()); // { customers: 500, jobs: 1014 }
 */
export function seedDatabase(db: Database, options: SeedOptions, now: number): { customers: number; jobs: number } {
  const count = options.count ?? 500;
  const faker = new Faker({ locale: [en, base] });
  if (options.fakerSeed !== undefined) faker.seed(options.fakerSeed);
  // Indexes and triggers set aside while the rows go in, their work done set-based at the end.
  return db.transaction(() => {
    const seeded = bulkLoad(db, () => {
    for (let i = 0; i < count; i++) {
      const firstName = faker.person.firstName();
      const lastName = faker.person.lastName();
      const created = faker.number.int({ min: now - threeYearsMs, max: now });
      const modified = faker.number.int({ min: created, max: now });
      db.run('INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES (?, ?, ?, ?, ?)', [
        `${firstName} ${lastName}`,
        faker.phone.number(),
        faker.internet.email({ firstName, lastName }).toLowerCase(),
        created,
        modified,
      ]);
    }
    const jobs = options.jobs === false ? 0 : seedJobs(db, faker, now);
    return { customers: count, jobs };
    });
    // The invoiced and paid jobs' invoices (and the paid ones' payments), as migration 18 gives them.
    giveJobsInvoices(db);
    return seeded;
  });
}

/**
 * Gives every invoiced or paid job that is on no invoice an invoice of its own, as migration 18
 * gave the jobs before it (decision 0161): for jobs written straight into the table (a benchmark's
 * top-up, an extension's bulk insert), which no handler invoiced.
 * @example
 * store.transaction(() => { store.run('INSERT INTO jobs …'); giveJobsInvoices(store); });
 */
export function giveJobsInvoices(db: Database): void {
  db.exec(backfillInvoicesSql('sqlite'));
}
