import { customerRoutes, invoiceRoutes, jobRoutes, jobStatusLabels, limits, paymentMethodLabels, type Customer, type Invoice, type Job } from '@otto/api-contract';
import { callApi } from '../../lib/api-client';
import { toCsv } from '../../lib/csv';
import { localIsoDateTime } from '../../lib/format';

type ListRoute = typeof customerRoutes.list | typeof jobRoutes.list | typeof invoiceRoutes.list;

/** Every row of a list, a page at a time, reporting progress as `done of total`. */
async function fetchAll<T>(route: ListRoute, onProgress: (done: number, total: number) => void): Promise<T[]> {
  const rows: T[] = [];
  for (;;) {
    const page = await callApi(route, { filter: { limit: limits.maxPageSize, offset: rows.length } });
    rows.push(...(page.data as T[]));
    const total = page.totalCount ?? rows.length;
    onProgress(rows.length, total);
    if (page.data.length === 0 || rows.length >= total) return rows;
  }
}

// Local wall-clock time in the ISO order spreadsheets read as a date and time (decision 0097):
// "2026-12-01 08:00" for the minutes a person scheduled, with seconds for the record's own stamps.
const minutes = (ms: number | null) => (ms === null ? '' : localIsoDateTime(ms));
const seconds = (ms: number | null) => (ms === null ? '' : localIsoDateTime(ms, { seconds: true }));

/** All customers as CSV, newest changed first. */
export async function customersCsv(onProgress: (done: number, total: number) => void): Promise<string> {
  const customers = await fetchAll<Customer>(customerRoutes.list, onProgress);
  return toCsv([
    ['id', 'full_name', 'email', 'phone', 'created', 'modified'],
    ...customers.map((c) => [c.id, c.full_name, c.email, c.phone, seconds(c.created_dt), seconds(c.modified_dt)]),
  ]);
}

/** All jobs as CSV, newest changed first; prices in the currency's main unit. */
export async function jobsCsv(onProgress: (done: number, total: number) => void): Promise<string> {
  const jobs = await fetchAll<Job>(jobRoutes.list, onProgress);
  return toCsv([
    ['id', 'title', 'customer_id', 'customer', 'status', 'assignee', 'scheduled_start', 'scheduled_end', 'price', 'service_address', 'description', 'created', 'modified'],
    ...jobs.map((j) => [
      j.id,
      j.title,
      j.customer_id,
      j.customer_name,
      jobStatusLabels[j.status],
      j.assignee,
      minutes(j.scheduled_start_dt),
      minutes(j.scheduled_end_dt),
      (j.price_cents / 100).toFixed(2),
      j.service_address,
      j.description,
      seconds(j.created_dt),
      seconds(j.modified_dt),
    ]),
  ]);
}

const money = (cents: number) => (cents / 100).toFixed(2);

/**
 * All invoices as CSV, newest number first, one row each (money in the currency's main unit), and
 * their payments as another CSV, one row each: for a bookkeeper's spreadsheet.
 */
export async function invoicesCsv(onProgress: (done: number, total: number) => void): Promise<{ invoices: string; payments: string }> {
  const invoices = await fetchAll<Invoice>(invoiceRoutes.list, onProgress);
  return {
    invoices: toCsv([
      ['id', 'reference', 'customer_id', 'customer', 'status', 'issue_date', 'due_date', 'subtotal', 'discount', 'tax', 'total', 'paid', 'balance', 'job_ids', 'note'],
      ...invoices.map((i) => [
        i.id, i.reference, i.customer_id, i.customer_name, i.status, i.issue_date, i.due_date, money(i.subtotal_cents), money(i.discount_cents),
        money(i.tax_cents), money(i.total_cents), money(i.paid_cents), money(i.balance_cents), i.job_ids.join(' '), i.note,
      ]),
    ]),
    payments: toCsv([
      ['invoice_id', 'reference', 'paid_on', 'amount', 'method', 'note'],
      ...invoices.flatMap((i) => i.payments.map((p) => [i.id, i.reference, p.paid_on, money(p.amount_cents), paymentMethodLabels[p.method], p.note])),
    ]),
  };
}
