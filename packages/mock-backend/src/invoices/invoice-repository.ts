// Invoices, payments and the business's settings in SQL (migration 18, decision 0161): one codebase
// for SQLite and PostgreSQL.
import { newId } from '../sync/record-ids';
import {
  formatDay,
  invoiceAges,
  invoiceReference,
  invoiceTotals,
  parseCalendarDate,
  type BusinessSettings,
  type BusinessSettingsInput,
  type Invoice,
  type InvoiceAge,
  type InvoiceLine,
  type Payment,
  type PaymentInput,
} from '@otto/api-contract';
import type { SqlValue } from '@otto/sqlite-store';
import type { SqlClient } from '../sql/types';

export interface InvoiceRow {
  id: number;
  number: number;
  prefix: string;
  customer_id: number;
  customer_name: string;
  issue_date: string;
  due_date: string;
  lines_json: string;
  subtotal_cents: number;
  discount_cents: number;
  tax_cents: number;
  total_cents: number;
  paid_cents: number;
  balance_cents: number;
  note: string;
  currency: string;
  seller_name: string;
  seller_address: string;
  seller_tax_number: string;
  created_dt: number;
  modified_dt: number;
  voided_dt: number | null;
}

export const invoiceColumns = `i.id, i.number, i.prefix, i.customer_id, c.full_name AS customer_name, i.issue_date, i.due_date, i.lines_json,
  i.subtotal_cents, i.discount_cents, i.tax_cents, i.total_cents, i.paid_cents, i.balance_cents, i.note, i.currency, i.seller_name,
  i.seller_address, i.seller_tax_number, i.created_dt, i.modified_dt, i.voided_dt`;

/** Rows grouped by their invoice_id, in their order (Map.groupBy, which Node 20 lacks). */
function byInvoice<T extends { invoice_id: number }>(rows: readonly T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const id = Number(row.invoice_id);
    const group = groups.get(id);
    if (group) group.push(row);
    else groups.set(id, [row]);
  }
  return groups;
}

/** The rows' invoices with their jobs and payments (two queries for the whole page). */
export async function toInvoices(db: SqlClient, rows: InvoiceRow[]): Promise<Invoice[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.id));
  const marks = ids.map(() => '?').join(', ');
  const jobs = await db.all<{ invoice_id: number; job_id: number }>(
    `SELECT invoice_id, job_id FROM invoice_jobs WHERE invoice_id IN (${marks}) ORDER BY invoice_id, job_id`,
    ids,
  );
  const payments = await db.all<{ id: number; invoice_id: number; amount_cents: number; paid_on: string; method: Payment['method']; note: string; created_dt: number }>(
    `SELECT id, invoice_id, amount_cents, paid_on, method, note, created_dt FROM payments WHERE invoice_id IN (${marks}) ORDER BY invoice_id, paid_on, id`,
    ids,
  );
  // By invoice, once: a first sync's page of 5 000 invoices would otherwise filter both lists per invoice.
  const jobsOf = byInvoice(jobs);
  const paymentsOf = byInvoice(payments);
  return rows.map((row) => {
    const id = Number(row.id);
    const balance = Number(row.balance_cents);
    return {
      id: String(id),
      number: Number(row.number),
      reference: invoiceReference(row.prefix, Number(row.number)),
      customer_id: String(row.customer_id),
      customer_name: row.customer_name,
      job_ids: (jobsOf.get(id) ?? []).map((j) => String(j.job_id)),
      status: row.voided_dt !== null ? 'void' : balance > 0 ? 'open' : 'paid',
      issue_date: row.issue_date,
      due_date: row.due_date,
      lines: JSON.parse(row.lines_json) as InvoiceLine[],
      subtotal_cents: Number(row.subtotal_cents),
      discount_cents: Number(row.discount_cents),
      tax_cents: Number(row.tax_cents),
      total_cents: Number(row.total_cents),
      paid_cents: Number(row.paid_cents),
      balance_cents: balance,
      note: row.note,
      currency: row.currency,
      seller: { name: row.seller_name, address: row.seller_address, tax_number: row.seller_tax_number },
      payments: (paymentsOf.get(id) ?? []).map((p) => ({ id: String(p.id), amount_cents: Number(p.amount_cents), paid_on: p.paid_on, method: p.method, note: p.note, created_dt: Number(p.created_dt) })),
      created_dt: Number(row.created_dt),
      modified_dt: Number(row.modified_dt),
      voided_dt: row.voided_dt === null ? null : Number(row.voided_dt),
    };
  });
}

/** The invoice, or undefined; `lock` keeps its row locked until the write ends (see findJob). */
export async function findInvoice(db: SqlClient, id: number, { lock = false }: { lock?: boolean } = {}): Promise<Invoice | undefined> {
  const row = await db.get<InvoiceRow>(
    `SELECT ${invoiceColumns} FROM invoices i JOIN customers c ON c.id = i.customer_id WHERE i.id = ?${lock ? db.dialect.lockRows('i') : ''}`,
    [id],
  );
  return row && (await toInvoices(db, [row]))[0];
}

/** The first day of each age (`invoiceAges`) counted back from `today`: issued on or after it. */
export function ageBounds(today: string): { d30: string; d60: string; d90: string } {
  const { year, month, day } = parseCalendarDate(today);
  return { d30: formatDay(year, month, day - 30), d60: formatDay(year, month, day - 60), d90: formatDay(year, month, day - 90) };
}

/** The condition (over `invoices i`) and parameters of an age of the open invoices. */
export function ageCondition(age: InvoiceAge, today: string): { where: string; params: SqlValue[] } {
  const { d30, d60, d90 } = ageBounds(today);
  switch (age) {
    case '0-30':
      return { where: 'i.issue_date >= ?', params: [d30] };
    case '31-60':
      return { where: 'i.issue_date >= ? AND i.issue_date < ?', params: [d60, d30] };
    case '61-90':
      return { where: 'i.issue_date >= ? AND i.issue_date < ?', params: [d90, d60] };
    case '90+':
      return { where: 'i.issue_date < ?', params: [d90] };
  }
}

/** Open: not void, a balance due (as invoices_open_idx holds them). */
export const openInvoiceSql = 'i.voided_dt IS NULL AND i.balance_cents > 0';

export interface InvoiceFilter {
  customerId?: number;
  jobId?: number;
  status?: 'open' | 'overdue' | 'paid' | 'void';
  age?: InvoiceAge;
  /** Today in the business's time zone, `YYYY-MM-DD`: for overdue and age. */
  today?: string;
}

/** One page of invoices, newest number first, and how many match. */
export async function listInvoices(db: SqlClient, filter: InvoiceFilter, page: { limit: number; offset: number }): Promise<{ rows: Invoice[]; total: number }> {
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (filter.customerId !== undefined) {
    where.push('i.customer_id = ?');
    params.push(filter.customerId);
  }
  if (filter.jobId !== undefined) {
    where.push('i.id IN (SELECT invoice_id FROM invoice_jobs WHERE job_id = ?)');
    params.push(filter.jobId);
  }
  if (filter.status === 'void') where.push('i.voided_dt IS NOT NULL');
  if (filter.status === 'paid') where.push('i.voided_dt IS NULL AND i.balance_cents = 0');
  if (filter.status === 'open' || filter.status === 'overdue' || filter.age) where.push(openInvoiceSql);
  if (filter.status === 'overdue') {
    where.push('i.due_date < ?');
    params.push(filter.today as string);
  }
  if (filter.age) {
    const age = ageCondition(filter.age, filter.today as string);
    where.push(age.where);
    params.push(...age.params);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = Number((await db.get<{ n: number }>(`SELECT count(*) AS n FROM invoices i ${clause}`, params))?.n ?? 0);
  if (total === 0 || page.offset >= total) return { rows: [], total };
  const rows = await db.all<InvoiceRow>(
    `SELECT ${invoiceColumns} FROM invoices i JOIN customers c ON c.id = i.customer_id ${clause} ORDER BY i.number DESC LIMIT ? OFFSET ?`,
    [...params, page.limit, page.offset],
  );
  return { rows: await toInvoices(db, rows), total };
}

interface SettingsRow {
  name: string;
  address: string;
  tax_number: string;
  invoice_prefix: string;
  default_tax_rate_bp: number;
  payment_terms_days: number;
  next_invoice_number: number;
  modified_dt: number;
}

const settingsColumns = 'name, address, tax_number, invoice_prefix, default_tax_rate_bp, payment_terms_days, next_invoice_number, modified_dt';

function toSettings(row: SettingsRow): BusinessSettings {
  return {
    name: row.name,
    address: row.address,
    tax_number: row.tax_number,
    invoice_prefix: row.invoice_prefix,
    default_tax_rate_bp: Number(row.default_tax_rate_bp),
    payment_terms_days: Number(row.payment_terms_days),
    next_invoice_number: Number(row.next_invoice_number),
    modified_dt: Number(row.modified_dt),
  };
}

/** The business's settings (migration 18 made their one row). */
export async function readSettings(db: SqlClient): Promise<BusinessSettings> {
  return toSettings((await db.get<SettingsRow>(`SELECT ${settingsColumns} FROM business_settings WHERE k = 1`)) as SettingsRow);
}

export async function writeSettings(db: SqlClient, input: Required<BusinessSettingsInput>, now: number): Promise<BusinessSettings> {
  const row = await db.get<SettingsRow>(
    `UPDATE business_settings SET name = ?, address = ?, tax_number = ?, invoice_prefix = ?, default_tax_rate_bp = ?, payment_terms_days = ?, modified_dt = ?
     WHERE k = 1 RETURNING ${settingsColumns}`,
    [input.name, input.address, input.tax_number, input.invoice_prefix, input.default_tax_rate_bp, input.payment_terms_days, now],
  );
  return toSettings(row as SettingsRow);
}

/** What an invoice says, priced. */
export interface InvoiceContent {
  issue_date: string;
  due_date: string;
  lines: InvoiceLine[];
  note: string;
}

/**
 * Issues an invoice: takes the next number (the settings row's update locks it until the write
 * ends, so two issuers wait for each other and a rolled-back write gives its number back: numbers
 * never skip or repeat) and the business's details as they are, and links the jobs.
 */
export async function insertInvoice(
  db: SqlClient,
  customerId: number,
  jobIds: readonly number[],
  content: InvoiceContent,
  now: number,
  /** The ISO 4217 code its amounts are in ('' for none). */
  currency = '',
): Promise<number> {
  const taken = (await db.get<SettingsRow & { number: number }>(
    `UPDATE business_settings SET next_invoice_number = next_invoice_number + 1 WHERE k = 1
     RETURNING next_invoice_number - 1 AS number, invoice_prefix, name, address, tax_number`,
  )) as SettingsRow & { number: number };
  const totals = invoiceTotals(content.lines);
  const newInvoiceId = await newId(db, 'invoices');
  const inserted = (await db.get<{ id: number }>(
    `INSERT INTO invoices (${newInvoiceId.column}number, prefix, customer_id, issue_date, due_date, lines_json, subtotal_cents, discount_cents, tax_cents,
       total_cents, paid_cents, balance_cents, job_count, note, currency, seller_name, seller_address, seller_tax_number, created_dt, modified_dt, voided_dt)
     VALUES (${newInvoiceId.mark}?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL) RETURNING id`,
    [
      ...newInvoiceId.params,
      taken.number, taken.invoice_prefix, customerId, content.issue_date, content.due_date, JSON.stringify(content.lines),
      totals.subtotal_cents, totals.discount_cents, totals.tax_cents, totals.total_cents, totals.total_cents, jobIds.length,
      content.note, currency, taken.name, taken.address, taken.tax_number, now, now,
    ],
  )) as { id: number };
  const id = Number(inserted.id);
  for (const jobId of jobIds) await db.run('INSERT INTO invoice_jobs (invoice_id, job_id) VALUES (?, ?)', [id, jobId]);
  return id;
}

/** New dates, lines and note for an invoice with no payments. */
export async function updateInvoiceContent(db: SqlClient, id: number, content: InvoiceContent, now: number): Promise<void> {
  const totals = invoiceTotals(content.lines);
  await db.run(
    `UPDATE invoices SET issue_date = ?, due_date = ?, lines_json = ?, subtotal_cents = ?, discount_cents = ?, tax_cents = ?, total_cents = ?,
       balance_cents = ? - paid_cents, note = ?, modified_dt = ? WHERE id = ?`,
    [content.issue_date, content.due_date, JSON.stringify(content.lines), totals.subtotal_cents, totals.discount_cents, totals.tax_cents,
      totals.total_cents, totals.total_cents, content.note, now, id],
  );
}

export async function voidInvoice(db: SqlClient, id: number, now: number): Promise<void> {
  await db.run('UPDATE invoices SET voided_dt = ?, modified_dt = ? WHERE id = ?', [now, now, id]);
}

/** Records a payment and lowers the balance; answers the payment's id. */
export async function insertPayment(db: SqlClient, invoiceId: number, payment: Required<PaymentInput>, now: number): Promise<number> {
  const id = await newId(db, 'payments');
  const row = (await db.get<{ id: number }>(
    `INSERT INTO payments (${id.column}invoice_id, amount_cents, paid_on, method, note, created_dt) VALUES (${id.mark}?, ?, ?, ?, ?, ?) RETURNING id`,
    [...id.params, invoiceId, payment.amount_cents, payment.paid_on, payment.method, payment.note, now],
  )) as { id: number };
  await db.run('UPDATE invoices SET paid_cents = paid_cents + ?, balance_cents = balance_cents - ?, modified_dt = ? WHERE id = ?', [
    payment.amount_cents, payment.amount_cents, now, invoiceId,
  ]);
  return Number(row.id);
}

/** Removes a payment of the invoice and raises the balance again; false when it names none. */
export async function deletePayment(db: SqlClient, invoiceId: number, paymentId: number, now: number): Promise<boolean> {
  const row = await db.get<{ amount_cents: number }>('DELETE FROM payments WHERE id = ? AND invoice_id = ? RETURNING amount_cents', [paymentId, invoiceId]);
  if (!row) return false;
  const amount = Number(row.amount_cents);
  await db.run('UPDATE invoices SET paid_cents = paid_cents - ?, balance_cents = balance_cents + ?, modified_dt = ? WHERE id = ?', [amount, amount, now, invoiceId]);
  return true;
}

/** The invoice (not void) that bills the job, if any. */
export async function liveInvoiceOfJob(db: SqlClient, jobId: number): Promise<number | undefined> {
  const row = await db.get<{ id: number }>(
    'SELECT i.id AS id FROM invoice_jobs x JOIN invoices i ON i.id = x.invoice_id WHERE x.job_id = ? AND i.voided_dt IS NULL ORDER BY i.id DESC LIMIT 1',
    [jobId],
  );
  return row === undefined ? undefined : Number(row.id);
}

/**
 * Moves the invoice's jobs that are in `from` to `to`, stamping `to`'s date unless `stamp` is
 * false, and forgets their last one-click move (they are no longer what it left). Archived jobs
 * follow too: the invoice is what was billed.
 */
export async function moveInvoiceJobs(db: SqlClient, invoiceId: number, from: string, to: string, now: number, stamp = true): Promise<string[]> {
  const ids = (await db.all<{ job_id: number }>(
    `SELECT x.job_id FROM invoice_jobs x JOIN jobs j ON j.id = x.job_id WHERE x.invoice_id = ? AND j.status = ?`,
    [invoiceId, from],
  )).map((r) => Number(r.job_id));
  for (const id of ids) {
    await db.run(`UPDATE jobs SET status = ?, modified_dt = ?${stamp ? `, ${to}_dt = ?` : ''} WHERE id = ?`, stamp ? [to, now, now, id] : [to, now, id]);
    await db.run('DELETE FROM job_moves WHERE job_id = ?', [id]);
  }
  return ids.map(String);
}

/**
 * Money owed, as the Overview shows it: the open invoices' balances in all, by age and overdue
 * (days in the business's time zone: `today`), and the customers who owe the most. Read off the
 * totals migration 18's triggers keep per issue day, due day and customer: a few hundred rows,
 * whatever the number of invoices.
 */
export async function owedSummary(db: SqlClient, today: string, top: number) {
  const { d30, d60, d90 } = ageBounds(today);
  const ages = await db.all<{ age: number; cents: number; invoices: number; jobs: number }>(
    `SELECT CASE WHEN issue_date >= ? THEN 0 WHEN issue_date >= ? THEN 1 WHEN issue_date >= ? THEN 2 ELSE 3 END AS age,
       sum(cents) AS cents, sum(invoices) AS invoices, sum(jobs) AS jobs
     FROM owed_days WHERE invoices > 0 GROUP BY 1`,
    [d30, d60, d90],
  );
  const overdue = await db.get<{ cents: number | null; invoices: number | null }>(
    'SELECT sum(cents) AS cents, sum(invoices) AS invoices FROM owed_due WHERE due_date < ? AND invoices > 0',
    [today],
  );
  const customers = await db.all<{ customer_id: number; customer_name: string; cents: number; jobs: number }>(
    `SELECT o.customer_id AS customer_id, c.full_name AS customer_name, o.cents AS cents, o.jobs AS jobs
     FROM owed_customers o ${db.dialect.indexedBy('owed_customers_top')} JOIN customers c ON c.id = o.customer_id
     WHERE o.invoices > 0
     ORDER BY o.cents DESC, o.customer_id LIMIT ?`,
    [top],
  );
  const age = (i: number) => ages.find((a) => Number(a.age) === i);
  const sum = (key: 'cents' | 'invoices' | 'jobs') => ages.reduce((n, a) => n + Number(a[key]), 0);
  return {
    total_cents: sum('cents'),
    jobs: sum('jobs'),
    invoices: sum('invoices'),
    customers: customers.map((r) => ({ customer_id: String(r.customer_id), customer_name: r.customer_name, owed_cents: Number(r.cents), jobs: Number(r.jobs) })),
    by_age: invoiceAges.map((name, i) => ({ age: name, owed_cents: Number(age(i)?.cents ?? 0), invoices: Number(age(i)?.invoices ?? 0) })),
    overdue: { owed_cents: Number(overdue?.cents ?? 0), invoices: Number(overdue?.invoices ?? 0) },
  };
}
