import { postgresCustomerSearch } from '../customers/customer-search';
import { postgresJobSearch } from '../jobs/job-search-postgres';
import { backfillInvoicesStatements } from '../database/migrations/invoices-sql';
import type { SqlDialect } from '../sql/dialect';

/**
 * PostgreSQL's SQL (decision 0122): search vectors on the rows themselves (decision 0112),
 * `otto_nocase(…) COLLATE "C"` for SQLite's NOCASE order, `FOR UPDATE` where a write reads first
 * (units of work run side by side on a pool), advisory locks, `json_array_elements`.
 * @example
 * const store = await createPostgresStore({ connectionString }); // store.dialect.name: 'postgres'
 */
export const postgresDialect: SqlDialect = {
  name: 'postgres',
  nocase: (expression) => `otto_nocase(${expression}) COLLATE "C"`,
  lockRows: (alias) => (alias ? ` FOR UPDATE OF ${alias}` : ' FOR UPDATE'),
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
  byteLength: (expression) => `octet_length(${expression})`,
  contains: (haystack) => `strpos(${haystack}, ?) > 0`,
  // NULL is PostgreSQL's largest value: it must be told to keep them last.
  descNullsLast: (expression) => `${expression} DESC NULLS LAST`,
  indexedBy: () => '',
  correlatedInPerRow: true,
  jsonIntegers: 'SELECT v::bigint AS value FROM json_array_elements_text(?::json) AS t(v)',
  jsonTriples: 'SELECT (v ->> 0)::bigint, (v ->> 1)::bigint, (v ->> 2)::bigint FROM json_array_elements(?::json) AS t(v)',
  jsonPairsNumbered: 'SELECT (t.ord - 1)::bigint, (t.v ->> 0)::bigint, (t.v ->> 1)::bigint FROM json_array_elements(?::json) WITH ORDINALITY AS t(v, ord)',
  ownIdSql: null,
  keyLock: 'SELECT pg_advisory_xact_lock(hashtext(?))',
  // The search columns are generated with the rows: deleting a row deletes them.
  deleteSearchRows: () => null,
  backfillInvoices: backfillInvoicesStatements('postgres'),
  customerSearch: postgresCustomerSearch,
  jobSearch: postgresJobSearch,
};
