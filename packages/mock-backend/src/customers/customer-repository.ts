import type { Customer, CustomerInput, CustomerSortField, SortOrder } from '@otto/api-contract';
import type { SqlClient } from '../sql/types';
import { phoneDigitsOf, toCustomerFtsQuery } from '../database/fts-query';
import { wholeWords } from '../database/fts-vocab';
import { toPostgresCustomerTsQuery } from '../postgres/search';

interface CustomerRow {
  id: number;
  full_name: string;
  phone: string;
  email: string;
  created_dt: number;
  modified_dt: number;
  archived_dt: number | null;
}

const columns = 'c.id, c.full_name, c.phone, c.email, c.created_dt, c.modified_dt, c.archived_dt';
/** The same columns, as a write's RETURNING clause names them (SQLite takes no table alias there). */
const returning = 'id, full_name, phone, email, created_dt, modified_dt, archived_dt';

function toCustomer(row: CustomerRow): Customer {
  return { ...row, id: String(row.id) };
}

export interface CustomerPage {
  rows: Customer[];
  total: number;
}

/**
 * Searches that match more customers than this are listed newest first instead of by rank: bm25
 * scores every match (about 1 µs each in SQLite WASM: 35 ms for a word a third of 100 000 customers
 * share), while newest first is read straight off the index in rowid order.
 */
export const maxRankedMatches = 1_000;

/** An order a customer list can be asked for (filterJson `sortBy`, `sortOrder`). */
export interface CustomerSort {
  by: CustomerSortField;
  order: SortOrder;
}

/**
 * ORDER BY terms for a sort over `customers` named `alias`; each has an index (migrations 1, 4
 * and 5) read forwards or backwards, the id breaking ties so that pages never overlap. Names sort
 * without regard to ASCII case (`NOCASE`: SQLite has no locale collation).
 */
/**
 * `expression` compared as SQLite's NOCASE compares it (ASCII letters folded, then code point
 * order), in either dialect: PostgreSQL's otto_nocase(…) COLLATE "C" (its migration 11) is the
 * same order whatever the server's locale, and what its sort indexes hold.
 */
export function nocase(db: SqlClient, expression: string): string {
  return db.dialect === 'postgres' ? `otto_nocase(${expression}) COLLATE "C"` : `${expression} COLLATE NOCASE`;
}

/** The list's order when none is asked for: newest modified first (the spec's). */
const defaultCustomerSort: CustomerSort = { by: 'modified_dt', order: 'desc' };

function customerOrder(db: SqlClient, sort: CustomerSort, alias: string, reversed = false): string {
  const dir = (sort.order === 'asc') !== reversed ? 'ASC' : 'DESC';
  const column = sort.by === 'full_name' ? nocase(db, `${alias}.full_name`) : `${alias}.${sort.by}`;
  return `${column} ${dir}, ${alias}.id ${dir}`;
}

/**
 * One page of customers. With search text: best full-text matches first (bm25, then newest
 * modified), or newest first when the text matches more than `maxRankedMatches` customers. Without:
 * newest modified first. A `sort` replaces either order (with search text it orders the matches).
 */
export async function listCustomers(
  db: SqlClient,
  { queryText, limit, offset, sort }: { queryText: string; limit: number; offset: number; sort?: CustomerSort | undefined },
): Promise<CustomerPage> {
  if (queryText.trim() === '') {
    const total = await countCustomers(db);
    const by = sort ?? defaultCustomerSort;
    // The page's ids come from the covering (partial) index alone, so a deep offset skips index
    // entries, not rows; a page in the back half of the list is read from the index's other end
    // (exact, as the total is), so no page skips more than half of the customers.
    const fromEnd = Math.max(0, total - offset - limit);
    const backwards = fromEnd < offset && offset < total;
    const [pick, pickLimit, pickOffset] = backwards
      ? [customerOrder(db, by, 'customers', true), Math.min(limit, total - offset), fromEnd]
      : [customerOrder(db, by, 'customers'), limit, offset];
    const rows = await db.all<CustomerRow>(
      `SELECT ${columns} FROM customers c WHERE c.id IN (
         SELECT id FROM customers WHERE archived_dt IS NULL ORDER BY ${pick} LIMIT ? OFFSET ?
       ) ORDER BY ${customerOrder(db, by, 'c')}`,
      [pickLimit, pickOffset],
    );
    return { rows: rows.map(toCustomer), total };
  }
  if (db.dialect === 'postgres') return searchCustomersPostgres(db, { queryText, limit, offset, sort });
  // Archived customers are not in customers_fts (migration 6), so a search never finds them.
  const match = await toCustomerMatch(db, queryText);
  if (match === null) return { rows: [], total: 0 };
  const total = (await db.get<{ n: number }>('SELECT count(*) AS n FROM customers_fts WHERE customers_fts MATCH ?', [match]))?.n ?? 0;
  if (total === 0 || offset >= total) return { rows: [], total };
  const order = sort ? customerOrder(db, sort, 'c') : total <= maxRankedMatches ? 'f.rank, c.modified_dt DESC, c.id DESC' : 'f.rowid DESC';
  const rows = await db.all<CustomerRow>(
    `SELECT ${columns} FROM customers_fts f JOIN customers c ON c.id = f.rowid
     WHERE customers_fts MATCH ? ORDER BY ${order} LIMIT ? OFFSET ?`,
    [match, limit, offset],
  );
  return { rows: rows.map(toCustomer), total };
}

/**
 * A customer search on PostgreSQL, with SQLite's meaning and order (decision 0112): the tsquery
 * over the customers' search vectors (archived customers left out, as they are out of
 * customers_fts), best matches first (ts_rank, then newest modified), newest first past
 * `maxRankedMatches`.
 */
async function searchCustomersPostgres(
  db: SqlClient,
  { queryText, limit, offset, sort }: { queryText: string; limit: number; offset: number; sort?: CustomerSort | undefined },
): Promise<CustomerPage> {
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
}

/**
 * The MATCH expression of a customer search; each word whose prefix search finds only itself is
 * searched as that word (see `wholeWords`).
 */
async function toCustomerMatch(db: SqlClient, queryText: string): Promise<string | null> {
  const whole = await wholeWords(db, 'customers_fts', queryText);
  return toCustomerFtsQuery(queryText, (word) => whole.has(word));
}

/**
 * The customer, or undefined. `lock`: the row stays locked until the write's transaction ends
 * (PostgreSQL's `FOR UPDATE`), so that two writers who check it first cannot both act on what
 * they read; SQLite runs one write at a time anyway.
 */
export async function findCustomer(db: SqlClient, id: number, { lock = false }: { lock?: boolean } = {}): Promise<Customer | undefined> {
  const forUpdate = lock && db.dialect === 'postgres' ? ' FOR UPDATE' : '';
  const row = await db.get<CustomerRow>(`SELECT ${columns} FROM customers c WHERE c.id = ?${forUpdate}`, [id]);
  return row && toCustomer(row);
}

export async function insertCustomer(db: SqlClient, input: CustomerInput, now: number): Promise<Customer> {
  const row = await db.get<CustomerRow>(
    `INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES (?, ?, ?, ?, ?) RETURNING ${returning}`,
    [input.full_name, input.phone, input.email, now, now],
  );
  return toCustomer(row as CustomerRow);
}

/** Updates the three editable fields and modified_dt; undefined when there is no such customer. */
export async function updateCustomer(db: SqlClient, id: number, input: CustomerInput, now: number): Promise<Customer | undefined> {
  const row = await db.get<CustomerRow>(
    `UPDATE customers SET full_name = ?, email = ?, phone = ?, modified_dt = ? WHERE id = ? RETURNING ${returning}`,
    [input.full_name, input.email, input.phone, now, id],
  );
  return row && toCustomer(row);
}

/** How many customers are not archived: one row kept by triggers (migration 13; in shards, summed, on PostgreSQL). */
export async function countCustomers(db: SqlClient): Promise<number> {
  return (await db.get<{ n: number }>('SELECT sum(n) AS n FROM customer_count WHERE k = 1'))?.n ?? 0;
}

/**
 * One page of archived customers, most recently archived first; `queryText` keeps those whose
 * name, email or phone holds it (a plain substring test: the archive is small and not indexed
 * for full text).
 */
export async function listArchivedCustomers(
  db: SqlClient,
  { queryText, limit, offset }: { queryText: string; limit: number; offset: number },
): Promise<CustomerPage> {
  const text = queryText.trim().toLowerCase();
  const haystack = "lower(c.full_name || ' ' || c.email || ' ' || c.phone)";
  const where = text === '' ? '' : db.dialect === 'postgres' ? `AND strpos(${haystack}, ?) > 0` : `AND instr(${haystack}, ?) > 0`;
  const params = text === '' ? [] : [text];
  const total =
    (await db.get<{ n: number }>(`SELECT count(*) AS n FROM customers c WHERE c.archived_dt IS NOT NULL ${where}`, params))?.n ?? 0;
  const rows = await db.all<CustomerRow>(
    `SELECT ${columns} FROM customers c WHERE c.archived_dt IS NOT NULL ${where}
     ORDER BY c.archived_dt DESC, c.id DESC LIMIT ? OFFSET ?`,
    [...params, limit, offset],
  );
  return { rows: rows.map(toCustomer), total };
}

/** Sets or clears archived_dt (and modified_dt); the triggers take the customer out of or back into the search index. */
export async function setCustomerArchived(db: SqlClient, id: number, archived: boolean, now: number): Promise<Customer | undefined> {
  const row = await db.get<CustomerRow>(`UPDATE customers SET archived_dt = ?, modified_dt = ? WHERE id = ? RETURNING ${returning}`, [
    archived ? now : null,
    now,
    id,
  ]);
  return row && toCustomer(row);
}

/** How many jobs (archived or not) a customer has. */
export async function countJobsOfCustomer(db: SqlClient, id: number): Promise<number> {
  return (await db.get<{ n: number }>('SELECT count(*) AS n FROM jobs WHERE customer_id = ?', [id]))?.n ?? 0;
}

export async function deleteCustomer(db: SqlClient, id: number): Promise<void> {
  await db.run('DELETE FROM customers WHERE id = ?', [id]);
}

/** A customer that already has the email or the phone number of a new one. */
export interface CustomerMatch {
  customer: Customer;
  matched: ('email' | 'phone')[];
}

/** Fewest digits a phone needs before two phones ending in the same digits count as one number. */
export const minDuplicatePhoneDigits = 6;

/**
 * Customers (not archived) whose email equals `email` (ignoring case) or whose phone's digits end
 * with the digits of `phone` (so `+44 20 7946 0958` and `020 7946 0958`'s digits `2079460958` match),
 * at most `limit`, most recently modified first.
 */
export async function findCustomerMatches(
  db: SqlClient,
  { email, phone, excludeId }: { email?: string; phone?: string; excludeId?: number },
  limit = 5,
): Promise<CustomerMatch[]> {
  const found = new Map<number, CustomerMatch>();
  const add = (rows: CustomerRow[], field: 'email' | 'phone') => {
    for (const row of rows) {
      if (row.id === excludeId) continue;
      const entry = found.get(row.id) ?? { customer: toCustomer(row), matched: [] };
      entry.matched.push(field);
      found.set(row.id, entry);
    }
  };
  const trimmedEmail = email?.trim() ?? '';
  if (trimmedEmail !== '') {
    add(
      await db.all<CustomerRow>(
        `SELECT ${columns} FROM customers c WHERE lower(c.email) = lower(?) AND c.archived_dt IS NULL
         ORDER BY c.modified_dt DESC LIMIT ?`,
        [trimmedEmail, limit + 1],
      ),
      'email',
    );
  }
  const digits = phone === undefined ? null : phone.replace(/\D/g, '');
  if (digits !== null && digits.length >= minDuplicatePhoneDigits && phoneDigitsOf(digits) !== null) {
    // The whole digit string of every phone is one phone_digits token: an exact token match finds
    // the phones whose digits end with these (a country code in front is the same number).
    add(
      db.dialect === 'postgres'
        ? // The phone's digit suffixes are the weight-A lexemes of its search vector (decision 0112).
          await db.all<CustomerRow>(
            `SELECT ${columns} FROM customers c WHERE c.archived_dt IS NULL AND c.search_vector @@ ?::tsquery
             ORDER BY c.modified_dt DESC LIMIT ?`,
            [`'${digits.slice(0, 40)}':A`, limit + 1],
          )
        : await db.all<CustomerRow>(
            `SELECT ${columns} FROM customers_fts f JOIN customers c ON c.id = f.rowid
             WHERE customers_fts MATCH ? ORDER BY c.modified_dt DESC LIMIT ?`,
            [`phone_digits : "${digits.slice(0, 40)}"`, limit + 1],
          ),
      'phone',
    );
  }
  return [...found.values()].sort((a, b) => b.customer.modified_dt - a.customer.modified_dt).slice(0, limit);
}
