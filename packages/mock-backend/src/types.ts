import type { SqliteStore, StoreInfo } from '@otto/sqlite-store';
import type { SeedOptions } from './database/seed';
import type { Logger } from './logger';

/**
 * Options of `createMockApi`.
 * @example
 * const options: MockApiOptions = { seed: { count: 50, fakerSeed: 1 }, now: () => Date.UTC(2026, 0, 1) };
 */
export interface MockApiOptions {
  /**
   * The database. It is opened if needed, migrated, and seeded when empty. A store you pass in
   * stays yours: `api.close()` leaves it open.
   * @default a fresh in-memory store
   */
  store?: SqliteStore;
  /**
   * Random customers (with a history of jobs) to create when the customers table is empty, or
   * `false` for none.
   * @default { count: 500, jobs: true }
   */
  seed?: SeedOptions | false;
  /**
   * The clock, in epoch milliseconds; created_dt and modified_dt come from it.
   * @default Date.now
   */
  now?: () => number;
  /**
   * Where messages go ('Invalid filterJson param' among them).
   * @default createLogger() (tag 'otto', debug off)
   */
  logger?: Logger;
}

/**
 * A running mock backend: a function from a standard Request to a Response.
 * @example
 * const api: MockApi = await createMockApi();
 * const res = await api.fetch(new Request('http://localhost/api/customers/1'));
 */
export interface MockApi {
  /** Answers one request to /api/…; never throws, never answers 500 for bad input. */
  fetch(request: Request): Promise<Response>;
  /** The store behind the API (for backups, diagnostics and tests). */
  readonly store: SqliteStore;
  /** Where the data lives and which SQLite runs it. */
  readonly info: StoreInfo & { seeded: { customers: number; jobs: number }; schemaVersion: number };
  /** Stops answering; closes the store when the API opened it. */
  close(): Promise<void>;
}
