import { sqliteCustomerSearch } from '../customers/customer-search';
import { sqliteJobSearch } from '../jobs/job-search-sqlite';
import { backfillInvoicesStatements } from '../database/migrations/invoices-sql';
import type { SqlDialect } from './dialect';

/**
 * SQLite's SQL (decision 0122): FTS5 tables beside the rows for search, `COLLATE NOCASE`,
 * `INDEXED BY`, `json_each`; no row locks (one connection runs one unit of work at a time).
 * @example
 * const sql = createSqliteSqlStore(store); // sql.dialect.name: 'sqlite'
 */
export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  nocase: (expression) => `${expression} COLLATE NOCASE`,
  lockRows: () => '',
  greatest: (a, b) => `max(${a}, ${b})`,
  byteLength: (expression) => `length(CAST(${expression} AS BLOB))`,
  contains: (haystack) => `instr(${haystack}, ?) > 0`,
  // NULL is SQLite's smallest value: last in a descending order already.
  descNullsLast: (expression) => `${expression} DESC`,
  indexedBy: (index) => `INDEXED BY ${index}`,
  correlatedInPerRow: false,
  jsonIntegers: 'SELECT value FROM json_each(?)',
  jsonTriples: 'SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?)',
  jsonPairsNumbered: 'SELECT key, value ->> 0, value ->> 1 FROM json_each(?)',
  keyLock: null,
  ownIdSql: (table, below) => `(SELECT coalesce(max(id), 0) + 1 FROM ${table} WHERE id < ${below})`,
  deleteSearchRows: (table, idsSql) => `DELETE FROM ${table === 'customers' ? 'customers_fts' : 'jobs_fts'} WHERE rowid IN (${idsSql})`,
  backfillInvoices: backfillInvoicesStatements('sqlite'),
  customerSearch: sqliteCustomerSearch,
  jobSearch: sqliteJobSearch,
};
