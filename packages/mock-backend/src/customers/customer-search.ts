import { customerFtsRowsSql } from '../database/migrations';
import { toCustomerFtsQuery } from '../database/fts-query';
import { wholeWords } from '../database/fts-vocab';
import { toPostgresCustomerTsQuery } from '../postgres/search';
import { keptGet } from '../sql/kept-results';
import type { SqlClient } from '../sql/types';
import { customerColumns as columns, customerOrder, maxRankedMatches, toCustomer, type CustomerPage, type CustomerRow, type CustomerSort } from './customer-rows';

/**
 * Customer search as each dialect does it, with one meaning (decision 0112): SQLite's FTS5 table
 * customers_fts, PostgreSQL's search vector on the row. Archived customers are never found.
 */
export interface CustomerSearch {
  /**
   * One page of the customers whose text matches `queryText` (not blank): best matches first
   * (rank, then newest modified), newest first past `maxRankedMatches`; `sort` replaces that order.
   */
  page(db: SqlClient, query: { queryText: string; limit: number; offset: number; sort?: CustomerSort | undefined }): Promise<CustomerPage>;
  /** Customers whose phone's digits end with `digits` (at most 40 kept), newest modified first, at most `limit`. */
  byPhoneDigits(db: SqlClient, digits: string, limit: number): Promise<CustomerRow[]>;
  /**
   * Before an import adds many customers: their search rows are added in one statement when
   * `finish` is called (migration 12); `undefined` where the rows compute their own.
   */
  deferRows(db: SqlClient): Promise<{ finish(): Promise<void> } | undefined>;
}

/** SQLite: the FTS5 table customers_fts, keyed by the customer's id (its rowid). */
export const sqliteCustomerSearch: CustomerSearch = {
  async page(db, { queryText, limit, offset, sort }) {
    // Archived customers are not in customers_fts (migration 6), so a search never finds them.
    const match = await toCustomerMatch(db, queryText);
    if (match === null) return { rows: [], total: 0 };
    // Kept until the data changes: the next page of the same search counts nothing again.
    const total = (await keptGet<{ n: number }>(db, 'SELECT count(*) AS n FROM customers_fts WHERE customers_fts MATCH ?', [match]))?.n ?? 0;
    if (total === 0 || offset >= total) return { rows: [], total };
    const order = sort ? customerOrder(db, sort, 'c') : total <= maxRankedMatches ? 'f.rank, c.modified_dt DESC, c.id DESC' : 'f.rowid DESC';
    const rows = await db.all<CustomerRow>(
      `SELECT ${columns} FROM customers_fts f JOIN customers c ON c.id = f.rowid
       WHERE customers_fts MATCH ? ORDER BY ${order} LIMIT ? OFFSET ?`,
      [match, limit, offset],
    );
    return { rows: rows.map(toCustomer), total };
  },
  byPhoneDigits(db, digits, limit) {
    // The whole digit string of every phone is one phone_digits token: an exact token match finds
    // the phones whose digits end with these (a country code in front is the same number).
    return db.all<CustomerRow>(
      `SELECT ${columns} FROM customers_fts f JOIN customers c ON c.id = f.rowid
       WHERE customers_fts MATCH ? ORDER BY c.modified_dt DESC LIMIT ?`,
      [`phone_digits : "${digits.slice(0, 40)}"`, limit],
    );
  },
  // The customers' full-text insert trigger is set aside for the rest of this transaction; `finish`
  // adds the rows it skipped (those of customers with a larger id than any before) and puts it
  // back. A failure rolls both back with the transaction.
  async deferRows(db) {
    const maxIdBefore = (await db.get<{ max: number | null }>('SELECT max(id) AS max FROM customers'))?.max ?? 0;
    await db.run("INSERT INTO fts_deferred (entity) VALUES ('customers')");
    return {
      async finish() {
        await db.run("DELETE FROM fts_deferred WHERE entity = 'customers'");
        await db.run(customerFtsRowsSql, [maxIdBefore]);
      },
    };
  },
};

/**
 * The MATCH expression of a customer search; each word whose prefix search finds only itself is
 * searched as that word (see `wholeWords`).
 */
async function toCustomerMatch(db: SqlClient, queryText: string): Promise<string | null> {
  const whole = await wholeWords(db, 'customers_fts', queryText);
  return toCustomerFtsQuery(queryText, (word) => whole.has(word));
}

/**
 * PostgreSQL, with SQLite's meaning and order (decision 0112): the tsquery over the customers'
 * search vectors (archived customers left out, as they are out of customers_fts), best matches
 * first (ts_rank, then newest modified), newest first past `maxRankedMatches`.
 */
export const postgresCustomerSearch: CustomerSearch = {
  async page(db, { queryText, limit, offset, sort }) {
    const query = toPostgresCustomerTsQuery(queryText);
    if (query === null) return { rows: [], total: 0 };
    const where = 'c.archived_dt IS NULL AND c.search_vector @@ ?::tsquery';
    const total = (await db.get<{ n: number }>(`SELECT count(*) AS n FROM customers c WHERE ${where}`, [query]))?.n ?? 0;
    if (total === 0 || offset >= total) return { rows: [], total };
    const ranked = !sort && total <= maxRankedMatches;
    const order = sort ? customerOrder(db, sort, 'c') : ranked ? 'ts_rank(c.search_vector, ?::tsquery) DESC, c.modified_dt DESC, c.id DESC' : 'c.id DESC';
    const rows = await db.all<CustomerRow>(`SELECT ${columns} FROM customers c WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`, [
      query,
      ...(ranked ? [query] : []),
      limit,
      offset,
    ]);
    return { rows: rows.map(toCustomer), total };
  },
  byPhoneDigits(db, digits, limit) {
    // The phone's digit suffixes are the weight-A lexemes of its search vector (decision 0112).
    return db.all<CustomerRow>(
      `SELECT ${columns} FROM customers c WHERE c.archived_dt IS NULL AND c.search_vector @@ ?::tsquery
       ORDER BY c.modified_dt DESC LIMIT ?`,
      [`'${digits.slice(0, 40)}':A`, limit],
    );
  },
  // A customer's search columns are generated with the row: nothing to defer.
  deferRows: async () => undefined,
};
