// Invoices, their lines and payments, and the business details they carry (issue 39, decision 0161).
import { z } from 'zod';
import { hasNoNul, noNulMessage } from './customer';
import { limits } from './limits';
import { calendarDaySchema, timeZoneSchema } from './report';

const text = (max: number, what: string) =>
  z.string(`${what} must be text.`).trim().max(max, `Use at most ${max} characters.`).refine(hasNoNul, noNulMessage);

const cents = z.number().int();

/**
 * Basis points: hundredths of a percent (2000 is 20 %), for tax rates and discounts.
 * @example
 * basisPointsSchema.parse(2000); // 20 %
 */
export const basisPointsSchema = z
  .number('Enter a percentage.')
  .int('Enter the rate in hundredths of a percent (20 % is 2000).')
  .min(0, 'A rate cannot be negative.')
  .max(10_000, 'A rate is at most 100 %.');

/**
 * A line's quantity: up to three decimals (1.5 hours, 0.25 tonnes), more than 0.
 * @example
 * quantitySchema.parse(1.5);
 */
export const quantitySchema = z
  .number('Enter a quantity.')
  .positive('The quantity must be more than 0.')
  .max(limits.maxInvoiceQuantity, `The quantity is at most ${limits.maxInvoiceQuantity}.`)
  .refine((q) => Math.abs(q * 1000 - Math.round(q * 1000)) < 1e-6, 'Use at most three decimals.');

/**
 * One line as a person enters it. `tax_rate_bp` and `discount_bp` are basis points (20 % is 2000).
 * @example
 * invoiceLineInputSchema.parse({ description: 'Labour', quantity: 2, unit_price_cents: 4500, tax_rate_bp: 2000 });
 */
export const invoiceLineInputSchema = z.object({
  description: text(limits.maxInvoiceLineLength, 'The description').min(1, 'Describe the line.'),
  quantity: quantitySchema.default(1),
  unit_price_cents: z
    .number('Enter a unit price.')
    .int('Enter the price in whole cents.')
    .min(0, 'The price cannot be negative.')
    .max(limits.maxUnitPriceCents, 'That price is too large.'),
  tax_rate_bp: basisPointsSchema.default(0),
  discount_bp: basisPointsSchema.default(0),
});
/**
 * A line as a client sends it.
 * @example
 * const line: InvoiceLineInput = { description: 'Call-out', unit_price_cents: 6000 };
 */
export type InvoiceLineInput = z.input<typeof invoiceLineInputSchema>;

/**
 * A line as stored and answered: what was entered and its money, each rounded once (see
 * `priceLine`).
 * @example
 * const line: InvoiceLine = invoice.lines[0];
 */
export const invoiceLineSchema = z.object({
  description: z.string(),
  quantity: z.number(),
  unit_price_cents: cents,
  tax_rate_bp: z.number().int(),
  discount_bp: z.number().int(),
  /** quantity × unit price. */
  amount_cents: cents,
  discount_cents: cents,
  /** Tax on the amount less its discount. */
  tax_cents: cents,
  /** amount − discount + tax. */
  total_cents: cents,
});
/**
 * A line with its money.
 * @example
 * const sum = (lines: InvoiceLine[]) => lines.reduce((s, l) => s + l.total_cents, 0);
 */
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;

/** `a × b / d` for whole numbers a, b ≥ 0, rounded half up, exactly (a product may pass 2^53). */
function roundedShare(a: number, b: number, d: number): number {
  const product = BigInt(a) * BigInt(b);
  const divisor = BigInt(d);
  const q = product / divisor;
  return Number(2n * (product - q * divisor) >= divisor ? q + 1n : q);
}

/**
 * The one rounding rule of Otto's invoices (decision 0161): each line's amount (quantity ×
 * unit price), its discount (a percentage of the amount) and its tax (a percentage of the amount
 * less the discount) are each rounded to a whole cent, half a cent up; the invoice's figures are
 * the sums of its lines' rounded figures. So the lines always add up to the totals, on paper and in
 * every backend.
 * @example
 * priceLine({ description: 'Labour', quantity: 1.5, unit_price_cents: 4999, tax_rate_bp: 2000, discount_bp: 0 });
 * // amount 7499 (7498.5 rounded up), tax 1500 (1499.8), total 8999
 */
export function priceLine(line: z.output<typeof invoiceLineInputSchema>): InvoiceLine {
  const thousandths = Math.round(line.quantity * 1000);
  const amount = roundedShare(thousandths, line.unit_price_cents, 1000);
  const discount = roundedShare(amount, line.discount_bp, 10_000);
  const tax = roundedShare(amount - discount, line.tax_rate_bp, 10_000);
  return {
    description: line.description,
    quantity: thousandths / 1000,
    unit_price_cents: line.unit_price_cents,
    tax_rate_bp: line.tax_rate_bp,
    discount_bp: line.discount_bp,
    amount_cents: amount,
    discount_cents: discount,
    tax_cents: tax,
    total_cents: amount - discount + tax,
  };
}

/**
 * An invoice's figures: the sums of its lines' rounded figures.
 * @example
 * invoiceTotals(lines.map(priceLine)).total_cents;
 */
export function invoiceTotals(lines: readonly InvoiceLine[]): { subtotal_cents: number; discount_cents: number; tax_cents: number; total_cents: number } {
  const sum = (f: (l: InvoiceLine) => number) => lines.reduce((s, l) => s + f(l), 0);
  return {
    subtotal_cents: sum((l) => l.amount_cents),
    discount_cents: sum((l) => l.discount_cents),
    tax_cents: sum((l) => l.tax_cents),
    total_cents: sum((l) => l.total_cents),
  };
}

/**
 * How a payment came in.
 * @example
 * paymentMethods.includes('card'); // true
 */
export const paymentMethods = ['bank_transfer', 'card', 'cash', 'cheque', 'other'] as const;
/**
 * Words for each payment method.
 * @example
 * paymentMethodLabels.bank_transfer; // 'Bank transfer'
 */
export const paymentMethodLabels: Record<(typeof paymentMethods)[number], string> = {
  bank_transfer: 'Bank transfer',
  card: 'Card',
  cash: 'Cash',
  cheque: 'Cheque',
  other: 'Other',
};

/**
 * The body of POST /api/invoices/{id}/payments: a payment received, at most the balance due.
 * @example
 * paymentInputSchema.parse({ amount_cents: 5000, paid_on: '2026-11-27', method: 'card' });
 */
export const paymentInputSchema = z.object({
  amount_cents: z
    .number('Enter an amount.')
    .int('Enter the amount in whole cents.')
    .positive('The amount must be more than 0.')
    .max(limits.maxPaymentCents, 'That amount is too large.'),
  paid_on: calendarDaySchema,
  method: z.enum(paymentMethods, 'Choose how it was paid.').default('bank_transfer'),
  note: text(limits.maxInvoiceNoteLength, 'The note').default(''),
});
/**
 * A payment as a client sends it.
 * @example
 * const payment: PaymentInput = { amount_cents: 5000, paid_on: '2026-11-27' };
 */
export type PaymentInput = z.input<typeof paymentInputSchema>;

/**
 * A payment as answered.
 * @example
 * const received = (p: Payment) => `${p.paid_on}: ${p.amount_cents}`;
 */
export const paymentSchema = z.object({
  id: z.string(),
  amount_cents: cents,
  paid_on: z.string(),
  method: z.enum(paymentMethods),
  note: z.string(),
  created_dt: z.number().int(),
});
/**
 * A payment on the wire.
 * @example
 * const total = (ps: Payment[]) => ps.reduce((s, p) => s + p.amount_cents, 0);
 */
export type Payment = z.infer<typeof paymentSchema>;

/**
 * Where an invoice stands: `open` (a balance due), `paid` (nothing due), `void` (cancelled; its
 * number stays used). Overdue is open past its due date, asked for by a list filter.
 * @example
 * invoiceStatuses.includes('void'); // true
 */
export const invoiceStatuses = ['open', 'paid', 'void'] as const;
/**
 * One of `invoiceStatuses`.
 * @example
 * const status: InvoiceStatus = 'open';
 */
export type InvoiceStatus = (typeof invoiceStatuses)[number];

/**
 * The business details an invoice carries, as they were when it was issued.
 * @example
 * const header = (s: Seller) => `${s.name}\n${s.address}`;
 */
export const sellerSchema = z.object({ name: z.string(), address: z.string(), tax_number: z.string() });
/**
 * The seller on an invoice.
 * @example
 * const seller: Seller = { name: 'Kit & Sons', address: '1 High St', tax_number: 'GB123' };
 */
export type Seller = z.infer<typeof sellerSchema>;

/**
 * An invoice as every client sees it. `reference` is the number as printed (prefix and number);
 * `number` increases by one per invoice of the business and is never reused, a void invoice
 * keeping its own. Money is integer cents; `balance_cents` is the total less the payments.
 * @example
 * const invoice = invoiceSchema.parse(await res.json());
 */
export const invoiceSchema = z.object({
  id: z.string(),
  number: z.number().int(),
  reference: z.string(),
  customer_id: z.string(),
  customer_name: z.string(),
  /** The jobs it bills: they are invoiced while it is open, paid when it is paid. */
  job_ids: z.array(z.string()),
  status: z.enum(invoiceStatuses),
  issue_date: z.string(),
  due_date: z.string(),
  lines: z.array(invoiceLineSchema),
  subtotal_cents: cents,
  discount_cents: cents,
  tax_cents: cents,
  total_cents: cents,
  paid_cents: cents,
  balance_cents: cents,
  note: z.string(),
  /**
   * The ISO 4217 code its amounts are in, as it was issued (`GBP`); empty for an invoice made
   * without one (before invoices had it, or by a job's one-click move): shown in the reader's.
   */
  currency: z.string(),
  seller: sellerSchema,
  payments: z.array(paymentSchema),
  created_dt: z.number().int(),
  modified_dt: z.number().int(),
  voided_dt: z.number().int().nullable(),
});
/**
 * An invoice on the wire.
 * @example
 * const owed = (i: Invoice) => i.status === 'open' ? i.balance_cents : 0;
 */
export type Invoice = z.infer<typeof invoiceSchema>;

/**
 * An ISO 4217 currency code (`GBP`, `EUR`), or empty for none.
 * @example
 * currencySchema.parse('GBP');
 */
export const currencySchema = z.string('The currency must be text.').regex(/^([A-Z]{3})?$/, 'Give the currency as its three-letter code, such as GBP.');

const invoiceLinesSchema = z
  .array(invoiceLineInputSchema)
  .min(1, 'Add at least one line.')
  .max(limits.maxInvoiceLines, `An invoice has at most ${limits.maxInvoiceLines} lines.`);

function checkDates(value: { issue_date: string; due_date: string; lines: z.output<typeof invoiceLineInputSchema>[] }, ctx: z.RefinementCtx) {
  if (value.due_date < value.issue_date) ctx.addIssue({ code: 'custom', path: ['due_date'], message: 'The due date cannot be before the issue date.' });
  // Every figure stays an exact integer in JavaScript (and in a JSON number).
  const total = value.lines.reduce((sum, line) => sum + BigInt(priceLine(line).total_cents), 0n);
  if (total > BigInt(limits.maxPaymentCents)) ctx.addIssue({ code: 'custom', path: ['lines'], message: 'The invoice total is too large.' });
}

/**
 * The body of POST /api/invoices: for one customer, the completed jobs it bills (none for a sale
 * without a job), its lines, dates and a note. The jobs move to invoiced.
 * @example
 * invoiceInputSchema.parse({ customer_id: '7', job_ids: ['12'], issue_date: '2026-11-27', due_date: '2026-12-27',
 *   lines: [{ description: 'Boiler service', unit_price_cents: 12500, tax_rate_bp: 2000 }] });
 */
export const invoiceInputSchema = z
  .object({
    customer_id: z.string('Choose a customer.').regex(/^[1-9]\d{0,15}$/, 'Choose a customer.'),
    job_ids: z
      .array(z.string().regex(/^[1-9]\d{0,15}$/, 'Name jobs by their ids.'))
      .max(limits.maxInvoiceJobs, `An invoice bills at most ${limits.maxInvoiceJobs} jobs.`)
      .refine((ids) => new Set(ids).size === ids.length, 'Name each job once.')
      .default([]),
    issue_date: calendarDaySchema,
    due_date: calendarDaySchema,
    lines: invoiceLinesSchema,
    note: text(limits.maxInvoiceNoteLength, 'The note').default(''),
    /** The ISO 4217 code of its amounts (the issuer's currency), or empty. */
    currency: currencySchema.default(''),
  })
  .superRefine(checkDates);
/**
 * What a client sends to issue an invoice.
 * @example
 * const input: InvoiceInput = { customer_id: '7', issue_date: '2026-11-27', due_date: '2026-12-27', lines: [{ description: 'Call-out', unit_price_cents: 6000 }] };
 */
export type InvoiceInput = z.input<typeof invoiceInputSchema>;

/**
 * The body of PUT /api/invoices/{id}: new dates, lines and note (the customer and jobs stay). Only
 * while it is open with no payments recorded.
 * @example
 * invoiceUpdateSchema.parse({ issue_date: '2026-11-27', due_date: '2026-12-11', lines: [{ description: 'Labour', quantity: 3, unit_price_cents: 4500 }] });
 */
export const invoiceUpdateSchema = z
  .object({
    issue_date: calendarDaySchema,
    due_date: calendarDaySchema,
    lines: invoiceLinesSchema,
    note: text(limits.maxInvoiceNoteLength, 'The note').default(''),
  })
  .superRefine(checkDates);
/**
 * What a client sends to change an invoice.
 * @example
 * const change: InvoiceUpdate = { issue_date: '2026-11-27', due_date: '2026-12-11', lines: [] };
 */
export type InvoiceUpdate = z.input<typeof invoiceUpdateSchema>;

/**
 * The money owed by how long ago it was invoiced (days since the issue date): the Overview's
 * "money owed by age" and a filter of the invoice list.
 * @example
 * invoiceAges.includes('31-60'); // true
 */
export const invoiceAges = ['0-30', '31-60', '61-90', '90+'] as const;
/**
 * One of `invoiceAges`.
 * @example
 * const age: InvoiceAge = '90+';
 */
export type InvoiceAge = (typeof invoiceAges)[number];

/**
 * filterJson of GET /api/invoices. `overdue` (open past the due date) and `age` need `tz`: they
 * count days in the business's time zone.
 * @example
 * const filter: InvoiceListParams = { status: 'overdue', tz: 'Europe/Berlin' };
 */
export const invoiceListParamsSchema = z.object({
  customerId: z.string().optional(),
  jobId: z.string().optional(),
  status: z.enum([...invoiceStatuses, 'overdue']).optional(),
  age: z.enum(invoiceAges).optional(),
  tz: timeZoneSchema.optional(),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(limits.maxPageSize).optional(),
});
/**
 * The filter of the invoice list.
 * @example
 * const filter: InvoiceListParams = { customerId: '7' };
 */
export type InvoiceListParams = z.infer<typeof invoiceListParamsSchema>;

/**
 * The business's details (Settings): what every new invoice carries, how its number is written
 * (`invoice_prefix`, then the number padded to four digits), its default tax rate and terms.
 * @example
 * businessSettingsInputSchema.parse({ name: 'Kit & Sons Plumbing', invoice_prefix: 'KS-' });
 */
export const businessSettingsInputSchema = z.object({
  name: text(limits.maxFullNameLength, 'The name').default(''),
  address: text(limits.maxAddressLength, 'The address').default(''),
  tax_number: text(60, 'The tax number').default(''),
  invoice_prefix: text(12, 'The prefix').regex(/^[^\s]*$/, 'Leave out spaces.').default('INV-'),
  default_tax_rate_bp: basisPointsSchema.default(0),
  payment_terms_days: z.number('Enter a number of days.').int('Enter whole days.').min(0, 'At least 0 days.').max(365, 'At most 365 days.').default(30),
});
/**
 * What a client sends to change the business's details.
 * @example
 * const input: BusinessSettingsInput = { name: 'Kit & Sons Plumbing' };
 */
export type BusinessSettingsInput = z.input<typeof businessSettingsInputSchema>;

/**
 * The business's details as answered, with the number the next invoice gets.
 * @example
 * const settings = businessSettingsSchema.parse(await res.json());
 */
export const businessSettingsSchema = z.object({
  name: z.string(),
  address: z.string(),
  tax_number: z.string(),
  invoice_prefix: z.string(),
  default_tax_rate_bp: z.number().int(),
  payment_terms_days: z.number().int(),
  next_invoice_number: z.number().int(),
  modified_dt: z.number().int(),
});
/**
 * The business's details.
 * @example
 * const ref = (s: BusinessSettings) => `${s.invoice_prefix}${String(s.next_invoice_number).padStart(4, '0')}`;
 */
export type BusinessSettings = z.infer<typeof businessSettingsSchema>;

/**
 * An invoice's number as printed: the prefix, then the number with at least four digits.
 * @example
 * invoiceReference('INV-', 42); // 'INV-0042'
 */
export function invoiceReference(prefix: string, number: number): string {
  return `${prefix}${String(number).padStart(4, '0')}`;
}
