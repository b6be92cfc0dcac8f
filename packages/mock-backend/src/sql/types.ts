import type { SqlValue } from '@otto/sqlite-store';
import type { KeptResults } from './kept-results';
import type { SqlDialect } from './dialect';
import type { RecordIds } from '../sync/record-ids';

export type { SqlDialect, SqlDialectName } from './dialect';

/**
 * The asynchronous SQL surface the API's handlers and repositories use: SQLite (the in-browser
 * backend and `otto-mock-server --db file`) and PostgreSQL (the team server) both implement it.
 * Parameters are positional `?` in both dialects (the PostgreSQL client numbers them).
 * Integers come back as JavaScript numbers in both (epoch milliseconds fit in 2^53).
 * @example
 * const row = await db.get<{ n: number }>('SELECT count(*) AS n FROM customers WHERE archived_dt IS NULL');
 */
export interface SqlClient {
  /**
   * What this database says differently (decision 0122): handlers and repositories are one
   * codebase, and where the two dialects must differ (full-text search, collations, row locks) a
   * repository asks the dialect for that part of the query.
   */
  readonly dialect: SqlDialect;
  /** All rows of a query, as objects keyed by column name. */
  all<T = Record<string, SqlValue>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** The first row of a query, or `undefined`. */
  get<T = Record<string, SqlValue>>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Runs one statement and says how many rows it changed. Use `get` with `RETURNING id` for a new row's id. */
  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
  /**
   * Where costly reads are kept until the data changes (SQLite reads outside a transaction; see
   * `keptGet`); absent where every read runs again.
   */
  readonly kept?: KeptResults;
  /**
   * Where a write's inserts take the ids of new records from, when not the database's own (a
   * device's range, or the ids a pushed write names; decision 0163).
   */
  readonly ids?: RecordIds;
}

/**
 * Options of one unit of work.
 * @example
 * await sql.transaction((db) => listCustomers(db, params), { readOnly: true });
 */
export interface TransactionOptions {
  /** A read: PostgreSQL runs it in a read-only snapshot; SQLite takes no write lock. */
  readOnly?: boolean;
}

/**
 * Where the API's data lives, as units of work: every request runs in one `transaction`, which
 * commits when `fn` resolves and rolls back when it rejects. SQLite runs them one at a time (one
 * connection); PostgreSQL runs them side by side on a pool.
 * @example
 * const customer = await sql.transaction((db) => insertCustomer(db, input, Date.now()));
 */
export interface SqlStore {
  readonly dialect: SqlDialect;
  transaction<T>(fn: (db: SqlClient) => Promise<T>, options?: TransactionOptions): Promise<T>;
}
