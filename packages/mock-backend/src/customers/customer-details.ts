// A customer's notes and service addresses (migration 19, decision 0162): kept beside the spec's
// customer row, which stays exactly as the spec says.
import { customerRoutes, type CustomerDetails } from '@otto/api-contract';
import type { SqlClient } from '../sql/types';
import { ApiError } from '../runtime/api-error';
import { defineHandler } from '../runtime/handler';
import { parseId } from '../runtime/ids';
import { checkPrecondition } from '../runtime/precondition';

/** Migration 19's table, the same on both stores (`bigint`: the store's 64-bit integer type). */
export function customerDetailsTableSql(bigint: string): string {
  return `
    CREATE TABLE customer_details (
      customer_id ${bigint} PRIMARY KEY REFERENCES customers (id) ON DELETE CASCADE,
      notes TEXT NOT NULL,
      addresses_json TEXT NOT NULL,
      modified_dt ${bigint} NOT NULL
    );
  `;
}

/** The customer's archived_dt (its row locked for a write: `lock`); undefined when there is no such customer. */
async function customerOf(db: SqlClient, idText: string, lock = false): Promise<{ id: number; archived_dt: number | null } | undefined> {
  const id = parseId(idText);
  if (id === null) return undefined;
  const row = await db.get<{ archived_dt: number | null }>(`SELECT archived_dt FROM customers c WHERE c.id = ?${lock ? db.dialect.lockRows('c') : ''}`, [id]);
  return row && { id, archived_dt: row.archived_dt };
}

async function readDetails(db: SqlClient, id: number): Promise<CustomerDetails> {
  const row = await db.get<{ notes: string; addresses_json: string; modified_dt: number }>(
    'SELECT notes, addresses_json, modified_dt FROM customer_details WHERE customer_id = ?',
    [id],
  );
  return {
    customer_id: String(id),
    notes: row?.notes ?? '',
    addresses: row ? (JSON.parse(row.addresses_json) as CustomerDetails['addresses']) : [],
    modified_dt: row ? Number(row.modified_dt) : 0,
  };
}

const notFound = (id: string) => new ApiError(404, 'NOT_FOUND', `Customer ${JSON.stringify(id)} was not found. They may never have existed.`);

const details = defineHandler(customerRoutes.details, async ({ sql, params }) => {
  const customer = await customerOf(sql, params.id);
  if (!customer) throw notFound(params.id);
  return { data: await readDetails(sql, customer.id) };
});

const putDetails = defineHandler(customerRoutes.putDetails, async ({ sql, params, body, now, ifMatch }) => {
  const customer = await customerOf(sql, params.id, true);
  if (!customer) throw notFound(params.id);
  const before = await readDetails(sql, customer.id);
  checkPrecondition(ifMatch, before.modified_dt, `The details of customer ${JSON.stringify(params.id)}`);
  if (customer.archived_dt !== null) throw new ApiError(409, 'CONFLICT', 'This customer is archived. Restore them to change their notes or addresses.');
  const addresses = body.addresses.map((a) => ({ label: a.label, address: a.address }));
  const stamp = now();
  await sql.run(
    `INSERT INTO customer_details (customer_id, notes, addresses_json, modified_dt) VALUES (?, ?, ?, ?)
     ON CONFLICT (customer_id) DO UPDATE SET notes = excluded.notes, addresses_json = excluded.addresses_json, modified_dt = excluded.modified_dt`,
    [customer.id, body.notes, JSON.stringify(addresses), stamp],
  );
  // The answer is the details (no `id` of its own): the customer is named for the change feed.
  return { data: await readDetails(sql, customer.id), changes: [{ entity: 'customer', kind: 'updated', ids: [String(customer.id)] }] };
});

/** The handlers of the customer details routes. */
export const customerDetailsHandlers = [details, putDetails];
