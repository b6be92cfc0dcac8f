// Invoices, payments and the business settings over the API (decision 0161), on SQLite in memory.
import { businessSettingsSchema, invoiceSchema, jobSchema, reportSummarySchema, totalCountHeader, type Invoice, type Job } from '@otto/api-contract';
import { openSqliteStore } from '@otto/sqlite-store';
import { afterEach, describe, expect, it } from 'vitest';
import { latestSchemaVersion, migrations } from '../src/database/migrations';
import { startApi, type TestApi } from './helpers';

let t: TestApi;
afterEach(() => {
  expectOwedExact();
  return t.api.close();
});

/** The owed totals migration 18's triggers keep equal summing the open invoices themselves. */
function expectOwedExact() {
  const all = (sql: string) => t.api.store.all(sql);
  const open = 'FROM invoices WHERE voided_dt IS NULL AND balance_cents > 0';
  expect(all('SELECT customer_id, cents, invoices, jobs FROM owed_customers WHERE invoices != 0 OR cents != 0 ORDER BY 1')).toEqual(
    all(`SELECT customer_id, sum(balance_cents) AS cents, count(*) AS invoices, sum(job_count) AS jobs ${open} GROUP BY 1 ORDER BY 1`),
  );
  expect(all('SELECT issue_date, cents, invoices, jobs FROM owed_days WHERE invoices != 0 OR cents != 0 ORDER BY 1')).toEqual(
    all(`SELECT issue_date, sum(balance_cents) AS cents, count(*) AS invoices, sum(job_count) AS jobs ${open} GROUP BY 1 ORDER BY 1`),
  );
  expect(all('SELECT due_date, cents, invoices FROM owed_due WHERE invoices != 0 OR cents != 0 ORDER BY 1')).toEqual(
    all(`SELECT due_date, sum(balance_cents) AS cents, count(*) AS invoices ${open} GROUP BY 1 ORDER BY 1`),
  );
}

const q = (filter: unknown) => `filterJson=${encodeURIComponent(JSON.stringify(filter))}`;

/** A customer with completed jobs (prices given), as a person would get them there. */
async function business(prices: number[] = [12_500, 8_000]) {
  t = await startApi();
  const customer = (await t.create({ full_name: 'Zoë Baker', email: 'zoe@example.com', phone: '555 0100' })).json as { id: string };
  const jobs: Job[] = [];
  for (const price of prices) {
    t.clock.advance();
    const job = jobSchema.parse((await t.call('POST', '/api/jobs', { customer_id: customer.id, title: `Job ${price}`, price_cents: price })).json);
    t.api.store.run("UPDATE jobs SET status = 'completed', completed_dt = ? WHERE id = ?", [t.clock.now(), Number(job.id)]);
    jobs.push(job);
  }
  return { customerId: customer.id, jobIds: jobs.map((j) => j.id) };
}

const job = async (id: string) => jobSchema.parse((await t.call('GET', `/api/jobs/${id}`)).json);

async function issue(body: Record<string, unknown>): Promise<Invoice> {
  t.clock.advance();
  const res = await t.call('POST', '/api/invoices', { issue_date: '2026-11-01', due_date: '2026-11-15', ...body });
  expect(res.status, res.text).toBe(200);
  return invoiceSchema.parse(res.json);
}

async function pay(id: string, amount: number, extra: Record<string, unknown> = {}) {
  t.clock.advance();
  return t.call('POST', `/api/invoices/${id}/payments`, { amount_cents: amount, paid_on: '2026-11-02', method: 'card', ...extra });
}

const threeLines = [
  { description: 'Labour', quantity: 1.5, unit_price_cents: 4_999, tax_rate_bp: 2_000 },
  { description: 'Parts', quantity: 3, unit_price_cents: 1_250, tax_rate_bp: 2_000, discount_bp: 1_000 },
  { description: 'Call-out', unit_price_cents: 6_000 },
];

describe('an invoice', () => {
  it('is issued for completed jobs with lines priced by the one rounding rule; its jobs become invoiced', async () => {
    const { customerId, jobIds } = await business();
    const invoice = await issue({ customer_id: customerId, job_ids: jobIds, lines: threeLines, note: 'Thank you', currency: 'GBP' });
    // Labour 1.5 × 49.99 = 74.985 → 74.99, tax 15.00 (14.998); parts 37.50 less 3.75, tax 6.75; call-out 60.00.
    expect(invoice.lines.map((l) => [l.amount_cents, l.discount_cents, l.tax_cents, l.total_cents])).toEqual([
      [7_499, 0, 1_500, 8_999],
      [3_750, 375, 675, 4_050],
      [6_000, 0, 0, 6_000],
    ]);
    expect(invoice).toMatchObject({
      number: 1,
      reference: 'INV-0001',
      customer_name: 'Zoë Baker',
      job_ids: jobIds,
      status: 'open',
      subtotal_cents: 17_249,
      discount_cents: 375,
      tax_cents: 2_175,
      total_cents: 19_049,
      paid_cents: 0,
      balance_cents: 19_049,
      note: 'Thank you',
      currency: 'GBP',
    });
    for (const id of jobIds) expect((await job(id)).status).toBe('invoiced');
    const again = await t.call('GET', `/api/invoices/${invoice.id}`);
    expect(again.headers.get('etag')).toBe(`"${invoice.modified_dt}"`);
    expect(invoiceSchema.parse(again.json)).toEqual(invoice);
  });

  it('refuses, in words and changing nothing, a job that is not completed, another customer\'s, or already invoiced', async () => {
    const { customerId, jobIds } = await business([100, 200]);
    const other = (await t.create({ full_name: 'Other', email: 'o@example.com', phone: '1' })).json as { id: string };
    t.api.store.run("UPDATE jobs SET status = 'scheduled', scheduled_start_dt = 1 WHERE id = ?", [Number(jobIds[1])]);
    const lines = [{ description: 'Work', unit_price_cents: 100 }];
    const tries: [Record<string, unknown>, string][] = [
      [{ customer_id: customerId, job_ids: [jobIds[1]], lines }, 'not completed'],
      [{ customer_id: other.id, job_ids: [jobIds[0]], lines }, "another customer's"],
      [{ customer_id: customerId, job_ids: ['999'], lines }, 'does not exist'],
      [{ customer_id: '999', job_ids: [], lines }, 'does not exist'],
      [{ customer_id: customerId, lines: [] }, 'at least one line'],
      [{ customer_id: customerId, lines: [{ description: 'x', unit_price_cents: 1, quantity: 0.0001 }] }, 'three decimals'],
      [{ customer_id: customerId, lines, due_date: '2026-10-01' }, 'before the issue date'],
      [{ customer_id: customerId, lines, currency: 'pounds' }, 'three-letter code'],
    ];
    for (const [body, words] of tries) {
      const res = await t.call('POST', '/api/invoices', { issue_date: '2026-11-01', due_date: '2026-11-15', ...body });
      expect(res.status, res.text).toBe(400);
      expect(res.text).toContain(words);
    }
    await issue({ customer_id: customerId, job_ids: [jobIds[0]], lines });
    const twice = await t.call('POST', '/api/invoices', { customer_id: customerId, job_ids: [jobIds[0]], lines, issue_date: '2026-11-01', due_date: '2026-11-01' });
    expect(twice.status).toBe(400);
    expect(twice.text).toContain('already on an invoice');
    // The refused ones took no number.
    expect(businessSettingsSchema.parse((await t.call('GET', '/api/settings/business')).json).next_invoice_number).toBe(2);
  });

  it('is paid in part, then in full: the balance falls, then it and its jobs are paid; more than the balance is refused', async () => {
    const { customerId, jobIds } = await business([10_000]);
    const invoice = await issue({ customer_id: customerId, job_ids: jobIds, lines: [{ description: 'Work', unit_price_cents: 10_000, tax_rate_bp: 2_000 }] });
    expect(invoice.total_cents).toBe(12_000);
    const part = await pay(invoice.id, 5_000);
    expect(part.status, part.text).toBe(200);
    expect(invoiceSchema.parse(part.json)).toMatchObject({ status: 'open', paid_cents: 5_000, balance_cents: 7_000 });
    expect((await job(jobIds[0]!)).status).toBe('invoiced');
    const tooMuch = await pay(invoice.id, 7_001);
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.text).toContain('more than the balance due (70.00)');
    const rest = invoiceSchema.parse((await pay(invoice.id, 7_000, { method: 'cash', note: 'At the door' })).json);
    expect(rest).toMatchObject({ status: 'paid', paid_cents: 12_000, balance_cents: 0 });
    expect(rest.payments.map((p) => [p.amount_cents, p.method, p.note])).toEqual([[5_000, 'card', ''], [7_000, 'cash', 'At the door']]);
    const paidJob = await job(jobIds[0]!);
    expect(paidJob.status).toBe('paid');
    expect(paidJob.status_dates.paid).toBe(t.clock.now());
    expect((await pay(invoice.id, 1)).status).toBe(409);
    // A payment removed: open again, its jobs invoiced again.
    const reopened = await t.call('DELETE', `/api/invoices/${invoice.id}/payments/${rest.payments[1]!.id}`);
    expect(invoiceSchema.parse(reopened.json)).toMatchObject({ status: 'open', balance_cents: 7_000 });
    expect((await job(jobIds[0]!)).status).toBe('invoiced');
    expect((await t.call('DELETE', `/api/invoices/${invoice.id}/payments/999`)).status).toBe(404);
  });

  it('is voided only without payments; its number stays used and its jobs are completed again', async () => {
    const { customerId, jobIds } = await business([100]);
    const first = await issue({ customer_id: customerId, job_ids: jobIds, lines: [{ description: 'Work', unit_price_cents: 100 }] });
    await pay(first.id, 50);
    const refused = await t.call('POST', `/api/invoices/${first.id}/void`);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('remove them');
    const [payment] = invoiceSchema.parse((await t.call('GET', `/api/invoices/${first.id}`)).json).payments;
    expect((await t.call('DELETE', `/api/invoices/${first.id}/payments/${payment!.id}`)).status).toBe(200);
    const voided = invoiceSchema.parse((await t.call('POST', `/api/invoices/${first.id}/void`)).json);
    expect(voided.status).toBe('void');
    expect((await job(jobIds[0]!)).status).toBe('completed');
    expect((await pay(first.id, 10)).status).toBe(409);
    const second = await issue({ customer_id: customerId, job_ids: jobIds, lines: [{ description: 'Work again', unit_price_cents: 100 }] });
    expect(second.number).toBe(2);
  });

  it('is changed only while open with no payments, and only at the version it was read at', async () => {
    const { customerId } = await business([]);
    const invoice = await issue({ customer_id: customerId, lines: [{ description: 'Work', unit_price_cents: 100 }] });
    const change = { issue_date: '2026-11-03', due_date: '2026-11-20', lines: threeLines, note: 'Changed' };
    const stale = await t.call('PUT', `/api/invoices/${invoice.id}`, change, { headers: { 'content-type': 'application/json', 'if-match': '"1"' } });
    expect(stale.status).toBe(412);
    t.clock.advance();
    const changed = await t.call('PUT', `/api/invoices/${invoice.id}`, change, { headers: { 'content-type': 'application/json', 'if-match': `"${invoice.modified_dt}"` } });
    expect(changed.status, changed.text).toBe(200);
    expect(invoiceSchema.parse(changed.json)).toMatchObject({ total_cents: 19_049, balance_cents: 19_049, issue_date: '2026-11-03', note: 'Changed', number: 1 });
    await pay(invoice.id, 100);
    expect((await t.call('PUT', `/api/invoices/${invoice.id}`, change)).status).toBe(409);
  });

  it('lists newest first, filtered by status, overdue and age in a time zone, customer and job', async () => {
    const { customerId, jobIds } = await business([100, 200, 300]);
    t.clock.set(Date.UTC(2026, 11, 31, 12));
    const a = await issue({ customer_id: customerId, job_ids: [jobIds[0]], lines: [{ description: 'a', unit_price_cents: 100 }], issue_date: '2026-12-20', due_date: '2027-01-19' });
    const b = await issue({ customer_id: customerId, job_ids: [jobIds[1]], lines: [{ description: 'b', unit_price_cents: 200 }], issue_date: '2026-11-15', due_date: '2026-11-30' });
    const c = await issue({ customer_id: customerId, job_ids: [jobIds[2]], lines: [{ description: 'c', unit_price_cents: 300 }], issue_date: '2026-08-01', due_date: '2026-08-31' });
    const d = await issue({ customer_id: customerId, lines: [{ description: 'd', unit_price_cents: 400 }], issue_date: '2026-10-01', due_date: '2026-10-31' });
    await pay(d.id, 400);
    const ids = async (filter: unknown) => {
      const res = await t.call('GET', `/api/invoices?${q(filter)}`);
      expect(res.status, res.text).toBe(200);
      return { ids: (res.json as Invoice[]).map((i) => i.id), total: Number(res.headers.get(totalCountHeader)) };
    };
    expect(await ids({})).toEqual({ ids: [d.id, c.id, b.id, a.id], total: 4 });
    expect((await ids({ status: 'open' })).ids).toEqual([c.id, b.id, a.id]);
    expect((await ids({ status: 'paid' })).ids).toEqual([d.id]);
    expect((await ids({ status: 'overdue', tz: 'UTC' })).ids).toEqual([c.id, b.id]);
    expect((await ids({ age: '0-30', tz: 'UTC' })).ids).toEqual([a.id]);
    expect((await ids({ age: '31-60', tz: 'UTC' })).ids).toEqual([b.id]);
    expect((await ids({ age: '90+', tz: 'UTC' })).ids).toEqual([c.id]);
    expect((await ids({ jobId: jobIds[1] })).ids).toEqual([b.id]);
    expect((await ids({ customerId, limit: 2, offset: 1 })).ids).toEqual([c.id, b.id]);
    expect((await ids({ customerId: 'nobody' })).ids).toEqual([]);
    // 1 Jan in Auckland already: a is then 12 days old, b's due date long past.
    expect((await ids({ status: 'overdue', tz: 'Pacific/Auckland' })).ids).toEqual([c.id, b.id]);
    const noZone = await t.call('GET', `/api/invoices?${q({ status: 'overdue' })}`);
    expect(noZone.status).toBe(400);
    expect((await t.call('GET', `/api/invoices?${q({ status: 'owed' })}`)).status).toBe(400);
    // The Overview: the open balances by age, overdue, and their sum as the rows say.
    const summary = reportSummarySchema.parse((await t.call('GET', `/api/reports/summary?${q({ tz: 'UTC' })}`)).json);
    expect(summary.owed).toMatchObject({
      total_cents: 600,
      invoices: 3,
      jobs: 3,
      overdue: { owed_cents: 500, invoices: 2 },
      by_age: [
        { age: '0-30', owed_cents: 100, invoices: 1 },
        { age: '31-60', owed_cents: 200, invoices: 1 },
        { age: '61-90', owed_cents: 0, invoices: 0 },
        { age: '90+', owed_cents: 300, invoices: 1 },
      ],
    });
    const bySql = t.api.store.get<{ c: number }>('SELECT sum(balance_cents) AS c FROM invoices WHERE voided_dt IS NULL')!.c;
    expect(summary.owed.total_cents).toBe(bySql);
  });
});

describe("a job's status and its invoice", () => {
  it('a one-click move to invoiced issues its invoice, to paid pays it; each undo takes exactly that back', async () => {
    const { jobIds } = await business([4_321]);
    const id = jobIds[0]!;
    const settings = await t.call('PUT', '/api/settings/business', { name: 'Kit & Sons', invoice_prefix: 'KS-', default_tax_rate_bp: 1_000, payment_terms_days: 14 });
    expect(settings.status, settings.text).toBe(200);
    t.clock.advance();
    const invoiced = jobSchema.parse((await t.call('POST', `/api/jobs/${id}/move`, { status: 'invoiced' })).json);
    const [invoice] = (await t.call('GET', `/api/invoices?${q({ jobId: id })}`)).json as Invoice[];
    expect(invoice).toMatchObject({ reference: 'KS-0001', total_cents: 4_753, seller: { name: 'Kit & Sons' }, issue_date: '2026-11-01', due_date: '2026-11-15' });
    expect(invoice!.lines).toEqual([expect.objectContaining({ description: 'Job 4321', quantity: 1, unit_price_cents: 4_321, tax_rate_bp: 1_000 })]);
    t.clock.advance();
    const paid = jobSchema.parse((await t.call('POST', `/api/jobs/${id}/move`, { status: 'paid' })).json);
    expect(paid.status).toBe('paid');
    expect(invoiceSchema.parse((await t.call('GET', `/api/invoices/${invoice!.id}`)).json)).toMatchObject({ status: 'paid', balance_cents: 0 });
    t.clock.advance();
    const undone = await t.call('POST', `/api/jobs/${id}/revert`, { version: paid.modified_dt });
    expect(undone.status, undone.text).toBe(200);
    expect(jobSchema.parse(undone.json).status).toBe('invoiced');
    expect(invoiceSchema.parse((await t.call('GET', `/api/invoices/${invoice!.id}`)).json)).toMatchObject({ status: 'open', payments: [] });
    // Moved to invoiced again through an edit, back to completed through an edit: voided.
    t.clock.advance();
    expect((await t.call('PATCH', `/api/jobs/${id}`, { status: 'completed' })).status).toBe(200);
    expect(invoiceSchema.parse((await t.call('GET', `/api/invoices/${invoice!.id}`)).json).status).toBe('void');
    t.clock.advance();
    const again = jobSchema.parse((await t.call('POST', `/api/jobs/${id}/move`, { status: 'invoiced' })).json);
    t.clock.advance();
    expect((await t.call('POST', `/api/jobs/${id}/revert`, { version: again.modified_dt })).status).toBe(200);
    const all = (await t.call('GET', `/api/invoices?${q({ jobId: id })}`)).json as Invoice[];
    expect(all.map((i) => [i.reference, i.status])).toEqual([['KS-0002', 'void'], ['KS-0001', 'void']]);
    expect(invoiced.status).toBe('invoiced');
  });

  it('a move back to completed voids the invoice; its undo brings that invoice back, the job invoiced again', async () => {
    const { jobIds } = await business([2_500]);
    const id = jobIds[0]!;
    const events: unknown[] = [];
    t.api.onChange((event) => events.push(event));
    t.clock.advance();
    jobSchema.parse((await t.call('POST', `/api/jobs/${id}/move`, { status: 'invoiced' })).json);
    const [invoice] = (await t.call('GET', `/api/invoices?${q({ jobId: id })}`)).json as Invoice[];
    expect(events).toContainEqual({ entity: 'invoice', kind: 'updated', ids: [invoice!.id] });
    t.clock.advance();
    const back = jobSchema.parse((await t.call('POST', `/api/jobs/${id}/move`, { status: 'completed' })).json);
    expect(invoiceSchema.parse((await t.call('GET', `/api/invoices/${invoice!.id}`)).json).status).toBe('void');
    t.clock.advance();
    const undone = await t.call('POST', `/api/jobs/${id}/revert`, { version: back.modified_dt });
    expect(undone.status, undone.text).toBe(200);
    expect(jobSchema.parse(undone.json).status).toBe('invoiced');
    expect(invoiceSchema.parse((await t.call('GET', `/api/invoices/${invoice!.id}`)).json)).toMatchObject({ status: 'open', balance_cents: 2_500 });
  });

  it('an edit into invoiced bills the job as edited; a job on an invoice keeps its customer', async () => {
    const { jobIds } = await business([12_500]);
    const id = jobIds[0]!;
    const before = await job(id);
    t.clock.advance();
    const res = await t.call('PUT', `/api/jobs/${id}`, { ...before, status: 'invoiced', price_cents: 99_900, title: 'New title' });
    expect(res.status, res.text).toBe(200);
    const [invoice] = (await t.call('GET', `/api/invoices?${q({ jobId: id })}`)).json as Invoice[];
    expect(invoice!.lines[0]).toMatchObject({ description: 'New title', unit_price_cents: 99_900 });
    const other = (await t.create({ full_name: 'Other', email: 'other@example.com', phone: '2' })).json as { id: string };
    const moved = await t.call('PATCH', `/api/jobs/${id}`, { customer_id: other.id });
    expect(moved.status).toBe(400);
    expect(moved.text).toContain('Void the invoice');
  });

  it('a job with no price moved to invoiced stays invoiced, owing nothing; marking it paid records no payment', async () => {
    const { jobIds } = await business([0]);
    t.clock.advance();
    const moved = jobSchema.parse((await t.call('POST', `/api/jobs/${jobIds[0]}/move`, { status: 'invoiced' })).json);
    expect(moved.status).toBe('invoiced');
    const [invoice] = (await t.call('GET', `/api/invoices?${q({ jobId: jobIds[0] })}`)).json as Invoice[];
    expect(invoice).toMatchObject({ total_cents: 0, balance_cents: 0 });
    t.clock.advance();
    expect(jobSchema.parse((await t.call('POST', `/api/jobs/${jobIds[0]}/move`, { status: 'paid' })).json).status).toBe('paid');
    expect(invoiceSchema.parse((await t.call('GET', `/api/invoices/${invoice!.id}`)).json).payments).toEqual([]);
  });

  it('a job deleted for good leaves its invoice, billing one job fewer', async () => {
    const { customerId, jobIds } = await business([100, 200]);
    const invoice = await issue({ customer_id: customerId, job_ids: jobIds, lines: [{ description: 'Both', unit_price_cents: 300 }] });
    for (const path of [`/api/jobs/${jobIds[0]}/archive`]) expect((await t.call('POST', path)).status).toBe(200);
    expect((await t.call('DELETE', `/api/jobs/${jobIds[0]}`)).status).toBe(200);
    const after = invoiceSchema.parse((await t.call('GET', `/api/invoices/${invoice.id}`)).json);
    expect(after).toMatchObject({ job_ids: [jobIds[1]], balance_cents: 300 });
    const summary = reportSummarySchema.parse((await t.call('GET', `/api/reports/summary?${q({ tz: 'UTC' })}`)).json);
    expect(summary.owed).toMatchObject({ invoices: 1, jobs: 1, total_cents: 300 });
  });

  it('refuses an invoice whose total would not be an exact number', async () => {
    const { customerId } = await business([]);
    const line = { description: 'Huge', quantity: 100_000, unit_price_cents: 1_000_000_000, tax_rate_bp: 10_000 };
    const res = await t.call('POST', '/api/invoices', { customer_id: customerId, issue_date: '2026-11-01', due_date: '2026-11-01', lines: Array.from({ length: 10 }, () => line) });
    expect(res.status).toBe(400);
    expect(res.text).toContain('total is too large');
  });

  it('moving an invoice partly paid back to completed is refused, in words', async () => {
    const { customerId, jobIds } = await business([1_000]);
    const invoice = await issue({ customer_id: customerId, job_ids: jobIds, lines: [{ description: 'Work', unit_price_cents: 1_000 }] });
    await pay(invoice.id, 100);
    const res = await t.call('POST', `/api/jobs/${jobIds[0]}/move`, { status: 'completed' });
    expect(res.status).toBe(409);
    expect(res.text).toContain('payments recorded');
    expect((await job(jobIds[0]!)).status).toBe('invoiced');
  });
});

describe('a customer with invoices', () => {
  it('is kept when archived: deleting them for good is refused, in words, even once their jobs are gone', async () => {
    const { customerId, jobIds } = await business([100]);
    await issue({ customer_id: customerId, job_ids: jobIds, lines: [{ description: 'Work', unit_price_cents: 100 }] });
    for (const id of jobIds) {
      expect((await t.call('POST', `/api/jobs/${id}/archive`)).status).toBe(200);
      expect((await t.call('DELETE', `/api/jobs/${id}`)).status).toBe(200);
    }
    expect((await t.call('POST', `/api/customers/${customerId}/archive`)).status).toBe(200);
    const res = await t.call('DELETE', `/api/customers/${customerId}`);
    expect(res.status).toBe(409);
    expect(res.text).toContain('an invoice, kept for your records');
    expect(((await t.call('GET', '/api/invoices')).json as Invoice[]).map((i) => i.job_ids)).toEqual([[]]);
  });
});

describe('the business settings', () => {
  it('are read and replaced; the next number is kept; bad input is a 400 in words', async () => {
    t = await startApi();
    const before = businessSettingsSchema.parse((await t.call('GET', '/api/settings/business')).json);
    expect(before).toMatchObject({ name: '', invoice_prefix: 'INV-', default_tax_rate_bp: 0, payment_terms_days: 30, next_invoice_number: 1 });
    t.clock.advance();
    const saved = await t.call('PUT', '/api/settings/business', { name: ' Kit & Sons ', address: '1 High St', tax_number: 'GB123', invoice_prefix: 'KS-', default_tax_rate_bp: 2_000, payment_terms_days: 14, next_invoice_number: 500 });
    expect(saved.status, saved.text).toBe(200);
    expect(businessSettingsSchema.parse(saved.json)).toMatchObject({ name: 'Kit & Sons', next_invoice_number: 1, default_tax_rate_bp: 2_000 });
    for (const bad of [{ invoice_prefix: 'K S' }, { default_tax_rate_bp: 10_001 }, { payment_terms_days: -1 }, { name: 'x'.repeat(500) }]) {
      const res = await t.call('PUT', '/api/settings/business', bad);
      expect(res.status).toBe(400);
    }
    const stale = await t.call('PUT', '/api/settings/business', {}, { headers: { 'content-type': 'application/json', 'if-match': `"${before.modified_dt}"` } });
    expect(stale.status).toBe(412);
  });
});

describe('migration 18', () => {
  it('gives every invoiced and paid job of a version 17 database an invoice of its price, so money owed stays what it was', async () => {
    const store = await openSqliteStore({ storage: 'memory' });
    store.migrate(migrations.slice(0, 17));
    store.run("INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES ('Kept', '1', 'k@e.com', 1, 1)");
    const day = 86_400_000;
    const insert = (status: string, price: number, at: number) =>
      store.run(`INSERT INTO jobs (customer_id, title, status, price_cents, created_dt, modified_dt, ${status}_dt) VALUES (1, ?, ?, ?, 1, ?, ?)`, [
        `${status} ${price}`, status, price, at, at,
      ]);
    insert('invoiced', 30_000, 20_000 * day);
    insert('paid', 5_000, 20_001 * day);
    insert('invoiced', 1_234, 19_000 * day);
    insert('completed', 999, 20_000 * day);
    const owedBefore = store.get<{ cents: number }>('SELECT cents FROM owed_total')!.cents;
    t = await startApi({ store });
    expect(t.api.info.schemaVersion).toBe(latestSchemaVersion);
    const invoices = (await t.call('GET', '/api/invoices')).json as Invoice[];
    expect(invoices.map((i) => [i.reference, i.total_cents, i.balance_cents, i.status, i.issue_date])).toEqual([
      ['INV-0003', 5_000, 0, 'paid', '2024-10-05'],
      ['INV-0002', 30_000, 30_000, 'open', '2024-10-04'],
      ['INV-0001', 1_234, 1_234, 'open', '2022-01-08'],
    ]);
    expect(invoices[0]!.payments).toEqual([expect.objectContaining({ amount_cents: 5_000, paid_on: '2024-10-05' })]);
    const summary = reportSummarySchema.parse((await t.call('GET', `/api/reports/summary?${q({ tz: 'UTC' })}`)).json);
    expect(summary.owed.total_cents).toBe(owedBefore);
    expect(businessSettingsSchema.parse((await t.call('GET', '/api/settings/business')).json).next_invoice_number).toBe(4);
  });
});

describe('a job import', () => {
  it('gives the invoiced and paid jobs it adds invoices of their own', async () => {
    await business([]);
    const res = await t.call('POST', '/api/jobs/import', {
      rows: [
        { customer_email: 'zoe@example.com', title: 'Old boiler', status: 'invoiced', price_cents: 7_000 },
        { customer_email: 'zoe@example.com', title: 'Old gutter', status: 'paid', price_cents: 3_000 },
        { customer_email: 'zoe@example.com', title: 'New quote', price_cents: 1_000 },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const invoices = (await t.call('GET', '/api/invoices')).json as Invoice[];
    expect(invoices.map((i) => [i.lines[0]?.description, i.status]).sort()).toEqual([['Old boiler', 'open'], ['Old gutter', 'paid']]);
  });
});
