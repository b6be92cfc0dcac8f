// The invoice, payment and business-settings calls (decision 0161), and how a job's status and its
// invoice follow each other.
import {
  formatDay,
  invoiceRoutes,
  limits,
  priceLine,
  settingsRoutes,
  zonedParts,
  type ChangeEvent,
  type Invoice,
  type InvoiceLineInput,
  type Job,
} from '@otto/api-contract';
import type { SqlClient } from '../sql/types';
import { ApiError, fieldError } from '../runtime/api-error';
import { defineHandler } from '../runtime/handler';
import { parseId } from '../runtime/ids';
import { checkPrecondition } from '../runtime/precondition';
import {
  deletePayment,
  findInvoice,
  insertInvoice,
  insertPayment,
  listInvoices,
  liveInvoiceOfJob,
  moveInvoiceJobs,
  readSettings,
  updateInvoiceContent,
  voidInvoice,
  writeSettings,
  type InvoiceFilter,
} from './invoice-repository';

function notFound(id: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', `Invoice ${JSON.stringify(id)} was not found. It may never have existed.`);
}

async function requireInvoice(db: SqlClient, id: string, ifMatch?: number[] | '*', lock = false): Promise<Invoice> {
  const rowid = parseId(id);
  const invoice = rowid === null ? undefined : await findInvoice(db, rowid, { lock });
  if (!invoice) throw notFound(id);
  checkPrecondition(ifMatch, invoice.modified_dt, `Invoice ${JSON.stringify(id)}`);
  return invoice;
}

const priced = (lines: readonly InvoiceLineInput[]) =>
  lines.map((l) => priceLine({ quantity: 1, tax_rate_bp: 0, discount_bp: 0, ...l }));

/** Change events for jobs an invoice moved, besides the invoice's own (the route's). */
function jobChanges(ids: readonly string[]): ChangeEvent[] {
  return ids.length ? [{ entity: 'job', kind: 'updated', ids: [...ids] }] : [];
}

/** The UTC calendar day of an instant, `days` later: the day a move made on a job issues or pays its invoice. */
function utcDay(ms: number, days = 0): string {
  const d = new Date(ms);
  return formatDay(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate() + days);
}

const list = defineHandler(invoiceRoutes.list, async ({ sql, filter, now }) => {
  const { limit = limits.defaultPageSize, offset = 0 } = filter;
  if ((filter.status === 'overdue' || filter.age !== undefined) && filter.tz === undefined) {
    throw new ApiError(400, 'INVALID_PARAMS', 'Overdue and age count days in a time zone: pass tz too, such as "Europe/Berlin".', [
      { path: 'tz', message: 'Pass the time zone.' },
    ]);
  }
  const parsed: InvoiceFilter = {};
  if (filter.customerId !== undefined) parsed.customerId = parseId(filter.customerId) ?? -1;
  if (filter.jobId !== undefined) parsed.jobId = parseId(filter.jobId) ?? -1;
  if (filter.status !== undefined) parsed.status = filter.status;
  if (filter.age !== undefined) parsed.age = filter.age;
  if (filter.tz !== undefined) {
    const today = zonedParts(now(), filter.tz);
    parsed.today = formatDay(today.year, today.month, today.day);
  }
  const page = await listInvoices(sql, parsed, { limit, offset });
  return { data: page.rows, totalCount: page.total };
});

const get = defineHandler(invoiceRoutes.get, async ({ sql, params }) => ({ data: await requireInvoice(sql, params.id) }));

const create = defineHandler(invoiceRoutes.create, async ({ sql, body, now }) => {
  const customerId = parseId(body.customer_id);
  const customer = customerId === null ? undefined : await sql.get<{ archived_dt: number | null }>('SELECT archived_dt FROM customers WHERE id = ?', [customerId]);
  if (customerId === null || customer === undefined) throw fieldError('customer_id', 'That customer does not exist. Choose one from the list.');
  if (customer.archived_dt !== null) throw fieldError('customer_id', 'That customer is archived. Restore them first.');
  const jobIds: number[] = [];
  for (const [i, wireId] of body.job_ids.entries()) {
    const id = parseId(wireId);
    const job = id === null ? undefined : await sql.get<{ customer_id: number; status: string; archived_dt: number | null }>(
      `SELECT customer_id, status, archived_dt FROM jobs WHERE id = ?${sql.dialect.lockRows()}`,
      [id],
    );
    const path = `job_ids.${i}`;
    if (id === null || job === undefined) throw fieldError(path, `Job ${JSON.stringify(wireId)} does not exist.`);
    if (Number(job.customer_id) !== customerId) throw fieldError(path, `Job ${wireId} is another customer's: an invoice bills one customer.`);
    if (job.archived_dt !== null) throw fieldError(path, `Job ${wireId} is archived. Restore it first.`);
    if ((await liveInvoiceOfJob(sql, id)) !== undefined) throw fieldError(path, `Job ${wireId} is already on an invoice. Void that one first.`);
    if (job.status !== 'completed') throw fieldError(path, `Job ${wireId} is not completed: only completed jobs are invoiced.`);
    jobIds.push(id);
  }
  const stamp = now();
  const id = await insertInvoice(sql, customerId, jobIds, { issue_date: body.issue_date, due_date: body.due_date, lines: priced(body.lines), note: body.note }, stamp, body.currency);
  const moved: string[] = [];
  moved.push(...(await moveInvoiceJobs(sql, id, 'completed', 'invoiced', stamp)));
  const invoice = (await findInvoice(sql, id)) as Invoice;
  // A zero total owes nothing: its jobs are paid at once.
  if (invoice.balance_cents === 0) await moveInvoiceJobs(sql, id, 'invoiced', 'paid', stamp);
  return { data: invoice, changes: [{ entity: 'invoice', kind: 'created', ids: [invoice.id] }, ...jobChanges(moved)] };
});

function requireOpenWithoutPayments(invoice: Invoice, doing: string): void {
  if (invoice.status === 'void') throw new ApiError(409, 'CONFLICT', `Invoice ${invoice.reference} is void: it cannot be ${doing}.`);
  if (invoice.payments.length > 0) {
    throw new ApiError(409, 'CONFLICT', `Invoice ${invoice.reference} has payments recorded: remove them before it is ${doing}.`);
  }
}

const update = defineHandler(invoiceRoutes.update, async ({ sql, params, body, now, ifMatch }) => {
  const invoice = await requireInvoice(sql, params.id, ifMatch, true);
  requireOpenWithoutPayments(invoice, 'changed');
  const stamp = now();
  await updateInvoiceContent(sql, Number(invoice.id), { issue_date: body.issue_date, due_date: body.due_date, lines: priced(body.lines), note: body.note }, stamp);
  const after = (await findInvoice(sql, Number(invoice.id))) as Invoice;
  // A total changed to zero owes nothing; one changed from zero owes again.
  const moved =
    after.balance_cents === 0
      ? await moveInvoiceJobs(sql, Number(invoice.id), 'invoiced', 'paid', stamp)
      : await moveInvoiceJobs(sql, Number(invoice.id), 'paid', 'invoiced', stamp, false);
  return { data: moved.length ? ((await findInvoice(sql, Number(invoice.id))) as Invoice) : after, changes: [{ entity: 'invoice', kind: 'updated', ids: [invoice.id] }, ...jobChanges(moved)] };
});

/** Voids the invoice (no payments) and puts its jobs back to completed; answers the jobs moved. */
export async function voidWithJobs(db: SqlClient, invoice: Invoice, now: number): Promise<string[]> {
  requireOpenWithoutPayments(invoice, 'voided');
  await voidInvoice(db, Number(invoice.id), now);
  // Back to completed without a new completion date: the work was done when it was.
  return [
    ...(await moveInvoiceJobs(db, Number(invoice.id), 'invoiced', 'completed', now, false)),
    ...(await moveInvoiceJobs(db, Number(invoice.id), 'paid', 'completed', now, false)),
  ];
}

const voidRoute = defineHandler(invoiceRoutes.void, async ({ sql, params, now, ifMatch }) => {
  const invoice = await requireInvoice(sql, params.id, ifMatch, true);
  if (invoice.status === 'void') return { data: invoice, changes: [] };
  const moved = await voidWithJobs(sql, invoice, now());
  return { data: (await findInvoice(sql, Number(invoice.id))) as Invoice, changes: [{ entity: 'invoice', kind: 'updated', ids: [invoice.id] }, ...jobChanges(moved)] };
});

/** Records a payment; at a zero balance the invoice's jobs are paid. Answers the payment and the jobs moved. */
export async function payWithJobs(db: SqlClient, invoice: Invoice, payment: Parameters<typeof insertPayment>[2], now: number): Promise<{ paymentId: number; moved: string[] }> {
  if (invoice.status === 'void') throw new ApiError(409, 'CONFLICT', `Invoice ${invoice.reference} is void: nothing is due.`);
  if (invoice.status === 'paid') throw new ApiError(409, 'CONFLICT', `Invoice ${invoice.reference} is paid: nothing is due.`);
  if (payment.amount_cents > invoice.balance_cents) {
    throw fieldError('amount_cents', `That is more than the balance due (${(invoice.balance_cents / 100).toFixed(2)}).`);
  }
  const paymentId = await insertPayment(db, Number(invoice.id), payment, now);
  const moved = payment.amount_cents === invoice.balance_cents ? await moveInvoiceJobs(db, Number(invoice.id), 'invoiced', 'paid', now) : [];
  return { paymentId, moved };
}

/** Removes a payment; a paid invoice's jobs go back to invoiced. Answers the jobs moved. */
export async function unpayWithJobs(db: SqlClient, invoice: Invoice, paymentId: number, now: number): Promise<string[]> {
  if (!(await deletePayment(db, Number(invoice.id), paymentId, now))) {
    throw new ApiError(404, 'NOT_FOUND', `Invoice ${invoice.reference} has no payment ${JSON.stringify(String(paymentId))}.`);
  }
  return moveInvoiceJobs(db, Number(invoice.id), 'paid', 'invoiced', now, false);
}

const pay = defineHandler(invoiceRoutes.pay, async ({ sql, params, body, now, ifMatch }) => {
  const invoice = await requireInvoice(sql, params.id, ifMatch, true);
  const { moved } = await payWithJobs(sql, invoice, body, now());
  return { data: (await findInvoice(sql, Number(invoice.id))) as Invoice, changes: [{ entity: 'invoice', kind: 'updated', ids: [invoice.id] }, ...jobChanges(moved)] };
});

const unpay = defineHandler(invoiceRoutes.unpay, async ({ sql, params, now, ifMatch }) => {
  const invoice = await requireInvoice(sql, params.id, ifMatch, true);
  const paymentId = parseId(params.paymentId);
  if (paymentId === null) throw new ApiError(404, 'NOT_FOUND', `Invoice ${invoice.reference} has no payment ${JSON.stringify(params.paymentId)}.`);
  const moved = await unpayWithJobs(sql, invoice, paymentId, now());
  return { data: (await findInvoice(sql, Number(invoice.id))) as Invoice, changes: [{ entity: 'invoice', kind: 'updated', ids: [invoice.id] }, ...jobChanges(moved)] };
});

/**
 * What a job's status change did to invoices: for the move's undo, the invoice it issued (a move
 * into invoiced) or voided (a move back to completed) and the payment it recorded (into paid); for
 * the change feed, the other jobs it moved and the invoices it touched.
 */
export interface InvoiceEffects {
  invoice_id: number | null;
  payment_id: number | null;
  jobs: string[];
  invoices: string[];
}

const noEffects = (): InvoiceEffects => ({ invoice_id: null, payment_id: null, jobs: [], invoices: [] });

/**
 * A job moved to invoiced by itself (a one-click move or an edit): an invoice of its own, one line
 * (its title, 1 × its price, the default tax rate), issued today (UTC) and due after the terms.
 */
async function invoiceJob(db: SqlClient, job: Job, now: number): Promise<number> {
  const settings = await readSettings(db);
  const lines = priced([{ description: job.title, unit_price_cents: job.price_cents, tax_rate_bp: settings.default_tax_rate_bp }]);
  const content = { issue_date: utcDay(now), due_date: utcDay(now, settings.payment_terms_days), lines, note: '' };
  return insertInvoice(db, Number(job.customer_id), [Number(job.id)], content, now);
}

/** The live invoice that bills the job, its row locked for the write. */
async function liveInvoiceFor(db: SqlClient, jobId: string): Promise<Invoice | undefined> {
  const id = await liveInvoiceOfJob(db, Number(jobId));
  return id === undefined ? undefined : findInvoice(db, id, { lock: true });
}

/**
 * Makes a job's invoice follow a status change already written to the job (decision 0161):
 * `before` is the job as it was, `after` as it is now. Into invoiced from completed: an invoice of
 * its own; into paid: a payment of its
 * invoice's balance (its other jobs are paid too); back from invoiced to completed: its invoice
 * voided (refused with 409 when it has payments, and the whole write with it).
 */
export async function followInvoice(db: SqlClient, before: Job, after: Job, now: number): Promise<InvoiceEffects> {
  const effects = noEffects();
  if (before.status === after.status) return effects;
  if (after.status === 'invoiced' && before.status === 'completed') {
    // The job lands where the person moved it, invoiced, even with nothing to pay (a job with no
    // price): its invoice owes nothing, and marking the job paid records no payment.
    const id = await invoiceJob(db, after, now);
    effects.invoice_id = id;
    effects.invoices.push(String(id));
  } else if (after.status === 'paid') {
    let invoice = await liveInvoiceFor(db, after.id);
    if (!invoice) {
      // A job invoiced before invoices existed and somehow left without one: bill it now.
      const id = await invoiceJob(db, after, now);
      invoice = (await findInvoice(db, id)) as Invoice;
    }
    effects.invoices.push(invoice.id);
    if (invoice.balance_cents > 0) {
      const paid = await payWithJobs(db, invoice, { amount_cents: invoice.balance_cents, paid_on: utcDay(now), method: 'other', note: `Marked paid on job ${after.id}.` }, now);
      effects.payment_id = paid.paymentId;
      effects.jobs.push(...paid.moved);
    }
  } else if (before.status === 'invoiced' && after.status === 'completed') {
    const invoice = await liveInvoiceFor(db, after.id);
    if (invoice) {
      effects.jobs.push(...(await voidWithJobs(db, invoice, now)));
      effects.invoice_id = Number(invoice.id);
      effects.invoices.push(invoice.id);
    }
  }
  return effects;
}

/**
 * Takes back what a one-click move made, before the job itself is put back: the payment it
 * recorded, the invoice it issued (voided), or the invoice it voided (open again, its jobs
 * invoiced again; refused when one of them is on another invoice since).
 */
export async function undoMoveEffects(
  db: SqlClient,
  move: { to_status: string; invoice_id: number | null; payment_id: number | null },
  now: number,
): Promise<InvoiceEffects> {
  const effects = noEffects();
  if (move.payment_id !== null) {
    const row = await db.get<{ invoice_id: number }>('SELECT invoice_id FROM payments WHERE id = ?', [move.payment_id]);
    const invoice = row && (await findInvoice(db, Number(row.invoice_id), { lock: true }));
    if (invoice) {
      effects.jobs.push(...(await unpayWithJobs(db, invoice, Number(move.payment_id), now)));
      effects.invoices.push(invoice.id);
    }
  } else if (move.invoice_id !== null) {
    const invoice = await findInvoice(db, Number(move.invoice_id), { lock: true });
    if (invoice && move.to_status === 'invoiced' && invoice.status !== 'void') {
      effects.jobs.push(...(await voidWithJobs(db, invoice, now)));
      effects.invoices.push(invoice.id);
    } else if (invoice && move.to_status === 'completed' && invoice.status === 'void') {
      for (const jobId of invoice.job_ids) {
        if ((await liveInvoiceOfJob(db, Number(jobId))) !== undefined) {
          throw new ApiError(409, 'CONFLICT', `Invoice ${invoice.reference} cannot be brought back: job ${jobId} is on another invoice since.`);
        }
      }
      await db.run('UPDATE invoices SET voided_dt = NULL, modified_dt = ? WHERE id = ?', [now, Number(invoice.id)]);
      effects.jobs.push(...(await moveInvoiceJobs(db, Number(invoice.id), 'completed', 'invoiced', now, false)));
      effects.invoices.push(invoice.id);
    }
  }
  return effects;
}

/** The change-feed events of a job write and what it did to invoices. */
export function jobWriteChanges(jobId: string, effects: InvoiceEffects): ChangeEvent[] {
  return [
    { entity: 'job', kind: 'updated', ids: [...new Set([jobId, ...effects.jobs])] },
    ...(effects.invoices.length ? [{ entity: 'invoice' as const, kind: 'updated' as const, ids: [...new Set(effects.invoices)] }] : []),
  ];
}

const getBusiness = defineHandler(settingsRoutes.getBusiness, async ({ sql }) => ({ data: await readSettings(sql) }));

const putBusiness = defineHandler(settingsRoutes.putBusiness, async ({ sql, body, now, ifMatch }) => {
  checkPrecondition(ifMatch, (await readSettings(sql)).modified_dt, 'The business settings');
  return { data: await writeSettings(sql, body, now()), changes: [{ entity: 'settings', kind: 'updated', ids: [] }] };
});

/** The handlers of every invoice and settings route of the contract. */
export const invoiceHandlers = [list, get, create, update, voidRoute, pay, unpay, getBusiness, putBusiness];
