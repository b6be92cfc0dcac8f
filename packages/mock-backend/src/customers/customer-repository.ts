import type { Customer, CustomerInput } from '@otto/api-contract';
import type { Database } from '@otto/sqlite-store';
import { toFtsQuery } from '../database/fts-query';

interface CustomerRow {
  id: number;
  full_name: string;
  phone: string;
  email: string;
  created_dt: number;
  modified_dt: number;
}

const columns = 'c.id, c.full_name, c.phone, c.email, c.created_dt, c.modified_dt';

function toCustomer(row: CustomerRow): Customer {
  return { ...row, id: String(row.id) };
}

export interface CustomerPage {
  rows: Customer[];
  total: number;
}

/** One page of customers: best full-text matches first when there is search text, else newest modified first. */
export function listCustomers(
  db: Database,
  { queryText, limit, offset }: { queryText: string; limit: number; offset: number },
): CustomerPage {
  if (queryText.trim() === '') {
    const total = db.get<{ n: number }>('SELECT count(*) AS n FROM customers')?.n ?? 0;
    const rows = db.all<CustomerRow>(
      `SELECT ${columns} FROM customers c ORDER BY c.modified_dt DESC, c.id DESC LIMIT ? OFFSET ?`,
      [limit, offset],
    );
    return { rows: rows.map(toCustomer), total };
  }
  const match = toFtsQuery(queryText);
  if (match === null) return { rows: [], total: 0 };
  const total = db.get<{ n: number }>('SELECT count(*) AS n FROM customers_fts WHERE customers_fts MATCH ?', [match])?.n ?? 0;
  const rows = db.all<CustomerRow>(
    `SELECT ${columns} FROM customers_fts f JOIN customers c ON c.id = f.rowid
     WHERE customers_fts MATCH ? ORDER BY f.rank, c.modified_dt DESC, c.id DESC LIMIT ? OFFSET ?`,
    [match, limit, offset],
  );
  return { rows: rows.map(toCustomer), total };
}

export function findCustomer(db: Database, id: number): Customer | undefined {
  const row = db.get<CustomerRow>(`SELECT ${columns} FROM customers c WHERE c.id = ?`, [id]);
  return row && toCustomer(row);
}

export function insertCustomer(db: Database, input: CustomerInput, now: number): Customer {
  const { lastInsertRowid } = db.run(
    'INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES (?, ?, ?, ?, ?)',
    [input.full_name, input.phone, input.email, now, now],
  );
  return findCustomer(db, lastInsertRowid) as Customer;
}

/** Updates the three editable fields and modified_dt; undefined when there is no such customer. */
export function updateCustomer(db: Database, id: number, input: CustomerInput, now: number): Customer | undefined {
  const { changes } = db.run('UPDATE customers SET full_name = ?, email = ?, phone = ?, modified_dt = ? WHERE id = ?', [
    input.full_name,
    input.email,
    input.phone,
    now,
    id,
  ]);
  return changes === 0 ? undefined : findCustomer(db, id);
}

export function countCustomers(db: Database): number {
  return db.get<{ n: number }>('SELECT count(*) AS n FROM customers')?.n ?? 0;
}
