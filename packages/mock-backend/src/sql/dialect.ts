import type { CustomerSearch } from '../customers/customer-search';
import type { JobSearch } from '../jobs/job-search';

/**
 * The name of a SQL dialect, for messages and diagnostics (never to branch on: ask the dialect).
 * @example
 * logger.info(`Migrated the ${sql.dialect.name satisfies SqlDialectName} database.`);
 */
export type SqlDialectName = 'sqlite' | 'postgres';

/**
 * Everything the SQL of Otto's repositories says differently on SQLite and on PostgreSQL, supplied
 * by the store (`SqlClient.dialect`, decision 0122): a repository writes one query and asks the
 * dialect for the part that differs, instead of comparing the dialect's name. Fragments are SQL
 * text built only from Otto's own identifiers; values are always bound as parameters.
 * @example
 * const row = await db.get(`SELECT * FROM customers c WHERE c.id = ?${db.dialect.lockRows()}`, [id]);
 */
export interface SqlDialect {
  readonly name: SqlDialectName;
  /**
   * `expression` compared as SQLite's NOCASE compares it (ASCII letters folded, then code point
   * order): SQLite's `COLLATE NOCASE`; PostgreSQL's `otto_nocase(…) COLLATE "C"` (the same order
   * whatever the server's locale, and what its sort indexes hold).
   */
  nocase(expression: string): string;
  /**
   * What ends a SELECT so that the rows it reads stay locked until the unit of work ends (`FOR
   * UPDATE`, of the table `alias` when given): two writers who check a row first cannot both act
   * on what they read. Empty on SQLite, which runs one write at a time anyway.
   */
  lockRows(alias?: string): string;
  /** The larger of two values (`max(a, b)` on SQLite, `GREATEST(a, b)` on PostgreSQL). */
  greatest(a: string, b: string): string;
  /** The length in bytes of a text's UTF-8 encoding. */
  byteLength(expression: string): string;
  /** A condition: `haystack` contains the text bound as its one parameter. */
  contains(haystack: string): string;
  /** `expression DESC` with NULL last (SQLite sorts NULL as the smallest value; PostgreSQL as the largest). */
  descNullsLast(expression: string): string;
  /** SQLite's `INDEXED BY index` (the planner's choice made certain); empty on PostgreSQL, which picks the same partial indexes by itself. */
  indexedBy(index: string): string;
  /** A SELECT of one column: the integers of a JSON array bound as its one parameter. */
  readonly jsonIntegers: string;
  /** A SELECT of rows (i, lo, hi): a JSON array of [i, lo, hi] integer triples bound as its one parameter. */
  readonly jsonTriples: string;
  /** A SELECT of rows (i, lo, hi): a JSON array of [lo, hi] pairs bound as its one parameter, i its place from 0. */
  readonly jsonPairsNumbered: string;
  /**
   * A statement that makes units of work with the same key (its one parameter, text) wait for
   * each other until the first commits; `null` where units run one at a time (SQLite).
   */
  readonly keyLock: string | null;
  /**
   * The SQL of a new row's own id where the database would otherwise give the largest id plus one
   * (SQLite): the largest id below `below` plus one, so ids in a device's range (decision 0163)
   * never move where the server's own go. `null` where a sequence gives ids (PostgreSQL).
   */
  readonly ownIdSql: ((table: string, below: number) => string) | null;
  /**
   * The SQL of full-text search tables kept apart from the rows: a DELETE of the search rows of the
   * records `idsSql` selects (it takes the parameters), for a delete no trigger follows; `null` where
   * the search columns live in the rows themselves (PostgreSQL).
   */
  deleteSearchRows(table: 'customers' | 'jobs', idsSql: string): string | null;
  /**
   * True when a join on a correlated `IN (SELECT … LIMIT ?)` runs that subquery once per row of
   * the joined table rather than once per outer row (PostgreSQL before 17): such pieces are then
   * written out uncorrelated, one per outer row. SQLite runs the correlated form once per outer row,
   * and compiles it faster than many pieces.
   */
  readonly correlatedInPerRow: boolean;
  /**
   * The statements that give every invoiced or paid job on no invoice one of its own (migration
   * 18's backfill), run after writes that set such statuses in bulk (an import).
   */
  readonly backfillInvoices: readonly string[];
  /** Customer search: FTS5 on SQLite, a tsvector on PostgreSQL (decision 0112). */
  readonly customerSearch: CustomerSearch;
  /** Job search and its counts per status. */
  readonly jobSearch: JobSearch;
}
