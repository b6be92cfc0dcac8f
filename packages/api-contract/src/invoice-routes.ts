// The invoice, payment and business-settings calls of the route table (decision 0161).
import { z } from 'zod';
import {
  businessSettingsInputSchema,
  businessSettingsSchema,
  invoiceInputSchema,
  invoiceListParamsSchema,
  invoiceSchema,
  invoiceUpdateSchema,
  paymentInputSchema,
} from './invoice';
import { idParams, type RouteDefinition } from './route-definition';

/**
 * Every invoice call. An invoice's jobs follow it: issuing it moves them from completed to
 * invoiced, a zero balance to paid, voiding it back to completed.
 * @example
 * const { method, path } = invoiceRoutes.pay; // 'POST', '/invoices/:id/payments'
 */
export const invoiceRoutes = {
  list: {
    method: 'GET',
    path: '/invoices',
    summary:
      'List invoices, newest number first; filtered by customer, job, status (open, overdue: open past its due date, paid, void) and age (days since issued: 0-30, 31-60, 61-90, 90+, open ones). overdue and age count days in tz.',
    filterJson: invoiceListParamsSchema,
    invalidFilter: 'error',
    errors: { 400: 'overdue or age without a time zone tz.' },
    response: z.array(invoiceSchema),
    totalCount: true,
  },
  get: {
    method: 'GET',
    path: '/invoices/:id',
    summary: 'One invoice by id, with its lines and payments.',
    params: idParams,
    response: invoiceSchema,
    etag: true,
  },
  create: {
    method: 'POST',
    path: '/invoices',
    summary:
      "Issue an invoice for one customer: the next number, the business's details as they are now, the lines priced by the one rounding rule. The jobs it names must be that customer's completed jobs on no other open or paid invoice; they move to invoiced.",
    body: invoiceInputSchema,
    errors: {
      400: 'An unknown or archived customer is an issue on customer_id; a job that is not theirs, not completed or already invoiced, one on job_ids.',
    },
    response: invoiceSchema,
    change: { entity: 'invoice', kind: 'created' },
  },
  update: {
    method: 'PUT',
    path: '/invoices/:id',
    summary: 'Change the dates, lines and note of an open invoice with no payments recorded (remove them first).',
    params: idParams,
    body: invoiceUpdateSchema,
    errors: { 409: 'The invoice is void or paid, or has payments recorded.' },
    response: invoiceSchema,
    change: { entity: 'invoice', kind: 'updated' },
    etag: true,
  },
  void: {
    method: 'POST',
    path: '/invoices/:id/void',
    summary: 'Void an invoice with no payments: its number stays used, its jobs go back to completed. Voiding a void invoice changes nothing.',
    params: idParams,
    errors: { 409: 'The invoice has payments recorded: remove them first.' },
    response: invoiceSchema,
    change: { entity: 'invoice', kind: 'updated' },
    etag: true,
  },
  pay: {
    method: 'POST',
    path: '/invoices/:id/payments',
    summary: 'Record a payment of at most the balance due. At a zero balance the invoice and its jobs are paid.',
    params: idParams,
    body: paymentInputSchema,
    errors: { 400: 'An amount more than the balance due is an issue on amount_cents.', 409: 'The invoice is void or already paid.' },
    response: invoiceSchema,
    change: { entity: 'invoice', kind: 'updated' },
    etag: true,
  },
  unpay: {
    method: 'DELETE',
    path: '/invoices/:id/payments/:paymentId',
    summary: 'Remove a payment recorded by mistake; a paid invoice and its jobs become open and invoiced again.',
    params: z.object({ id: z.string(), paymentId: z.string() }),
    response: invoiceSchema,
    change: { entity: 'invoice', kind: 'updated' },
    etag: true,
  },
} as const satisfies Record<string, RouteDefinition>;

/**
 * The business's details and invoice settings.
 * @example
 * const { method, path } = settingsRoutes.putBusiness; // 'PUT', '/settings/business'
 */
export const settingsRoutes = {
  getBusiness: {
    method: 'GET',
    path: '/settings/business',
    summary: "The business's details every new invoice carries, its invoice prefix, default tax rate and terms, and the next invoice number.",
    response: businessSettingsSchema,
    etag: true,
  },
  putBusiness: {
    method: 'PUT',
    path: '/settings/business',
    summary: "Replace the business's details and invoice settings (the next number is kept: numbers never skip or repeat).",
    body: businessSettingsInputSchema,
    response: businessSettingsSchema,
    change: { entity: 'settings', kind: 'updated' },
    etag: true,
  },
} as const satisfies Record<string, RouteDefinition>;
