import { businessSettingsSchema, invoiceSchema, invoiceTotals, priceLine, type Invoice } from '../invoice';
import { jobSchema } from '../job';
import { check, expectBody, expectStatus, tick } from './kit-client';
import type { ConformanceRule, RuleContext } from './rule-context';

/** A job of a new customer, walked to completed through the API. */
async function completedJob(ctx: RuleContext, price: number) {
  const customer = await ctx.createCustomer(`${ctx.token}invoice`);
  const job = await ctx.createJob(customer.id, { price_cents: price, status: 'scheduled', scheduled_start_dt: Date.now() });
  for (const status of ['in_progress', 'completed']) {
    await tick();
    expectStatus(await ctx.api.call('PATCH', `/jobs/${job.id}`, { body: { status } }), 200, `moving the job to ${status}`);
  }
  return { customer, job };
}

async function jobStatus(ctx: RuleContext, id: string): Promise<string> {
  const reply = await ctx.api.call('GET', `/jobs/${id}`);
  expectStatus(reply, 200);
  return expectBody(reply, jobSchema, 'the job').status;
}

const lines = [
  { description: 'Labour', quantity: 1.5, unit_price_cents: 4_999, tax_rate_bp: 2_000, discount_bp: 0 },
  { description: 'Parts', quantity: 3, unit_price_cents: 1_250, tax_rate_bp: 2_000, discount_bp: 1_000 },
  { description: 'Call-out', quantity: 1, unit_price_cents: 6_000, tax_rate_bp: 0, discount_bp: 0 },
];

/** Invoices and payments (decision 0161): the one rounding rule, numbering, the job following its invoice. */
export const invoiceRules: ConformanceRule[] = [
  {
    id: 'invoices.lifecycle',
    title:
      "POST /invoices for a completed job prices each line by the one rounding rule and moves the job to invoiced; a partial payment lowers the balance, more than the balance is a 400, the rest makes the invoice and its job paid.",
    async run(ctx) {
      const { customer, job } = await completedJob(ctx, 10_000);
      await tick();
      const created = await ctx.api.call('POST', '/invoices', {
        body: { customer_id: customer.id, job_ids: [job.id], issue_date: '2026-11-01', due_date: '2026-11-30', lines },
      });
      expectStatus(created, 200, 'issuing an invoice');
      const invoice = expectBody(created, invoiceSchema, 'the invoice');
      const want = lines.map(priceLine);
      check(JSON.stringify(invoice.lines) === JSON.stringify(want), () => `expected the lines priced ${JSON.stringify(want)}, got ${JSON.stringify(invoice.lines)}`);
      const totals = invoiceTotals(want);
      check(invoice.total_cents === totals.total_cents && invoice.tax_cents === totals.tax_cents && invoice.balance_cents === totals.total_cents && invoice.status === 'open',
        () => `expected totals ${JSON.stringify(totals)} and all of it due: ${JSON.stringify(invoice).slice(0, 400)}`);
      check(JSON.stringify(invoice.job_ids) === JSON.stringify([job.id]), () => `expected job_ids [${job.id}]: ${JSON.stringify(invoice.job_ids)}`);
      check((await jobStatus(ctx, job.id)) === 'invoiced', 'expected the job to be invoiced once its invoice was issued');
      const part = 5_000;
      await tick();
      const partly = await ctx.api.call('POST', `/invoices/${invoice.id}/payments`, { body: { amount_cents: part, paid_on: '2026-11-02', method: 'card' } });
      expectStatus(partly, 200, 'recording a partial payment');
      const open = expectBody(partly, invoiceSchema, 'the invoice');
      check(open.status === 'open' && open.balance_cents === totals.total_cents - part, () => `expected ${totals.total_cents - part} still due: ${JSON.stringify(open).slice(0, 300)}`);
      const tooMuch = await ctx.api.call('POST', `/invoices/${invoice.id}/payments`, { body: { amount_cents: open.balance_cents + 1, paid_on: '2026-11-02' } });
      expectStatus(tooMuch, 400, 'paying more than the balance');
      await tick();
      const rest = await ctx.api.call('POST', `/invoices/${invoice.id}/payments`, { body: { amount_cents: open.balance_cents, paid_on: '2026-11-03', method: 'cash' } });
      expectStatus(rest, 200, 'paying the rest');
      const paid = expectBody(rest, invoiceSchema, 'the invoice');
      check(paid.status === 'paid' && paid.balance_cents === 0 && paid.payments.length === 2, () => `expected a paid invoice with two payments: ${JSON.stringify(paid).slice(0, 300)}`);
      check((await jobStatus(ctx, job.id)) === 'paid', 'expected the job to be paid once its invoice was');
      await tick();
      const removed = await ctx.api.call('DELETE', `/invoices/${invoice.id}/payments/${paid.payments[1]?.id ?? ''}`);
      expectStatus(removed, 200, 'removing the last payment');
      const reopened = await ctx.api.call('GET', `/invoices/${invoice.id}`);
      expectStatus(reopened, 200);
      const again = expectBody(reopened, invoiceSchema, 'the invoice');
      check(again.status === 'open' && again.balance_cents === open.balance_cents, () => `expected ${open.balance_cents} due again: ${JSON.stringify(again).slice(0, 300)}`);
      check((await jobStatus(ctx, job.id)) === 'invoiced', 'expected the job to be invoiced again once a payment was removed');
    },
  },
  {
    id: 'invoices.numbers',
    title: 'Each new invoice takes a greater number; a void invoice keeps its number, and its job is completed again and can be invoiced anew.',
    async run(ctx) {
      const { customer, job } = await completedJob(ctx, 2_000);
      const issue = async () => {
        await tick();
        const reply = await ctx.api.call('POST', '/invoices', {
          body: { customer_id: customer.id, job_ids: [job.id], issue_date: '2026-11-01', due_date: '2026-11-01', lines: [{ description: 'Work', unit_price_cents: 2_000 }] },
        });
        expectStatus(reply, 200, 'issuing an invoice');
        return expectBody(reply, invoiceSchema, 'the invoice');
      };
      const first = await issue();
      const twice = await ctx.api.call('POST', '/invoices', {
        body: { customer_id: customer.id, job_ids: [job.id], issue_date: '2026-11-01', due_date: '2026-11-01', lines: [{ description: 'Work', unit_price_cents: 1 }] },
      });
      expectStatus(twice, 400, 'invoicing a job already on an invoice');
      await tick();
      const changed = await ctx.api.call('PUT', `/invoices/${first.id}`, {
        body: { issue_date: '2026-11-02', due_date: '2026-11-16', lines: [{ description: 'Work, two hours', quantity: 2, unit_price_cents: 1_000 }] },
      });
      expectStatus(changed, 200, 'changing the open invoice');
      const edited = expectBody(changed, invoiceSchema, 'the invoice');
      check(edited.number === first.number && edited.total_cents === 2_000 && edited.due_date === '2026-11-16', () => `expected the same number, the new lines and dates: ${JSON.stringify(edited).slice(0, 300)}`);
      await tick();
      const voided = await ctx.api.call('POST', `/invoices/${first.id}/void`);
      expectStatus(voided, 200, 'voiding the invoice');
      check(expectBody(voided, invoiceSchema, 'the invoice').status === 'void', 'expected the invoice to be void');
      check((await jobStatus(ctx, job.id)) === 'completed', 'expected the job to be completed again once its invoice was void');
      const second = await issue();
      check(second.number > first.number, () => `expected a greater number than ${first.number}: ${second.number}`);
      const listed = await ctx.api.call('GET', '/invoices', { filter: { jobId: job.id } });
      expectStatus(listed, 200);
      const found = (listed.json as Invoice[]).map((i) => [i.id, i.status]);
      check(JSON.stringify(found) === JSON.stringify([[second.id, 'open'], [first.id, 'void']]), () => `expected both invoices of the job, newest first: ${JSON.stringify(found)}`);
    },
  },
  {
    id: 'settings.business',
    title: "GET /settings/business answers the business's details and the next invoice number; PUT of the same details keeps that number.",
    async run(ctx) {
      const read = await ctx.api.call('GET', '/settings/business');
      expectStatus(read, 200);
      const settings = expectBody(read, businessSettingsSchema, 'the business settings');
      const { next_invoice_number: next, modified_dt: _m, ...details } = settings;
      await tick();
      const saved = await ctx.api.call('PUT', '/settings/business', { body: { ...details, next_invoice_number: next + 1000 } });
      expectStatus(saved, 200, 'saving the same details');
      const after = expectBody(saved, businessSettingsSchema, 'the business settings');
      check(after.next_invoice_number === next, () => `expected the next number to stay ${next}: ${after.next_invoice_number}`);
    },
  },
];
