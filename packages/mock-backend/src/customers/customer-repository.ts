import type { Customer, CustomerInput } from '@otto/api-contract';
import { newId } from '../sync/record-ids';
import type { SqlClient } from '../sql/types';
import { phoneDigitsOf } from '../database/fts-query';
import { customerColumns as columns, customerOrder, toCustomer, type CustomerPage, type CustomerRow, type CustomerSort } from './customer-rows';

export { maxRankedMatches, type CustomerPage, type CustomerSort } from './customer-rows';

/** The same columns, as a write's RETURNING clause names them (SQLite takes no table alias there). */
const returning = 'id, full_name, phone, email, created_dt, modified_dt, archived_dt';

/** The list's order when none is asked for: newest modified first (the spec's). */
const defaultCustomerSort: CustomerSort = { by: 'modified_dt', order: 'desc' };

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
  // Full-text search is the dialect's (decision 0112): FTS5 on SQLite, a tsvector on PostgreSQL.
  return db.dialect.customerSearch.page(db, { queryText, limit, offset, sort });
}

/**
 * The customer, or undefined. `lock`: the row stays locked until the write's transaction ends
 * (the dialect's `lockRows`: PostgreSQL's `FOR UPDATE`), so that two writers who check it first
 * cannot both act on what they read; SQLite runs one write at a time anyway.
 */
export async function findCustomer(db: SqlClient, id: number, { lock = false }: { lock?: boolean } = {}): Promise<Customer | undefined> {
  const row = await db.get<CustomerRow>(`SELECT ${columns} FROM customers c WHERE c.id = ?${lock ? db.dialect.lockRows() : ''}`, [id]);
  return row && toCustomer(row);
}

export async function insertCustomer(db: SqlClient, input: CustomerInput, now: number): Promise<Customer> {
  const id = await newId(db, 'customers');
  const row = await db.get<CustomerRow>(
    `INSERT INTO customers (${id.column}full_name, phone, email, created_dt, modified_dt) VALUES (${id.mark}?, ?, ?, ?, ?) RETURNING ${returning}`,
    [...id.params, input.full_name, input.phone, input.email, now, now],
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
  const where = text === '' ? '' : `AND ${db.dialect.contains(haystack)}`;
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
    add(await db.dialect.customerSearch.byPhoneDigits(db, digits, limit + 1), 'phone');
  }
  return [...found.values()].sort((a, b) => b.customer.modified_dt - a.customer.modified_dt).slice(0, limit);
}
