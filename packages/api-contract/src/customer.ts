import { z } from 'zod';
import { limits } from './limits';
import { listParamsShapeSchema } from './list-params';

/**
 * A customer as every client sees it: the id is a string, times are epoch milliseconds.
 * @example
 * const customer = customerSchema.parse(await res.json());
 */
export const customerSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  phone: z.string(),
  email: z.string(),
  created_dt: z.number().int(),
  modified_dt: z.number().int(),
  /**
   * When the customer was archived (epoch ms), or null. Archived customers are out of lists,
   * searches and counts until restored (decision 0091). Otto's backends always send it; optional
   * so that a backend of the spec's shape alone still passes.
   */
  archived_dt: z.number().int().nullable().optional(),
});
/**
 * A customer on the wire.
 * @example
 * const ada: Customer = { id: '7', full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '555 0100', created_dt: 1763769600000, modified_dt: 1763769600000 };
 */
export type Customer = z.infer<typeof customerSchema>;

/**
 * The spec's shape check for a customer object (section 5): full_name, phone and email are
 * strings, and id, when present, is a string. A create or update body that fails it is answered
 * with 200 and `null`.
 * @example
 * if (!customerShapeSchema.safeParse(body).success) return Response.json(null);
 */
export const customerShapeSchema = z.object({
  id: z.string().optional(),
  full_name: z.string(),
  phone: z.string(),
  email: z.string(),
});

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Text without the NUL character (U+0000): PostgreSQL text cannot hold it and SQLite cut the text
 * there, so both backends refuse it with the field's name instead (decision 0112).
 */
export const noNulMessage = 'Remove the invisible NUL character (\\u0000): it cannot be saved.';
/** Whether `value` has no NUL character (see `noNulMessage`). */
export const hasNoNul = (value: string): boolean => !value.includes('\u0000');

/**
 * The fields a person enters for a customer, with the rules and messages shown next to each
 * field. Values are trimmed. Backends answer a body that passes the shape check but breaks these
 * rules with 400 and the issues.
 * @example
 * const result = customerInputSchema.safeParse({ full_name: 'Ada', email: 'ada@example.com', phone: '555 0100' });
 */
export const customerInputSchema = z.object({
  full_name: z
    .string()
    .trim()
    .min(1, 'Enter the full name.')
    .max(limits.maxFullNameLength, `Use at most ${limits.maxFullNameLength} characters.`)
    .refine(hasNoNul, noNulMessage),
  // Empty for a customer reached by phone only (decision 0162): still a string, as the spec's
  // shape check asks; when given, an address.
  email: z
    .string()
    .trim()
    .max(limits.maxEmailLength, `Use at most ${limits.maxEmailLength} characters.`)
    .refine((value) => value === '' || emailPattern.test(value), 'Enter an email address like name@example.com, or leave it empty.')
    .refine(hasNoNul, noNulMessage),
  phone: z
    .string()
    .trim()
    .min(1, 'Enter the phone number.')
    .max(limits.maxPhoneLength, `Use at most ${limits.maxPhoneLength} characters.`)
    .regex(/\d/, 'A phone number needs at least one digit.')
    .refine(hasNoNul, noNulMessage),
});
/**
 * The fields of a create or update body, after trimming.
 * @example
 * const input: CustomerInput = { full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '555 0100' };
 */
export type CustomerInput = z.infer<typeof customerInputSchema>;

/**
 * filterJson of GET /api/customers: the spec's list parameters, and `archived: true` for the
 * archive (most recently archived first; queryText then keeps those whose name, email or phone
 * holds the text).
 * @example
 * `/api/customers?filterJson=${encodeURIComponent(JSON.stringify({ archived: true }))}`
 */
export const customerListParamsSchema = listParamsShapeSchema.extend({
  archived: z.boolean().optional(),
});
/**
 * The filter of the customer list.
 * @example
 * const filter: CustomerListParams = { queryText: 'smi', archived: true };
 */
export type CustomerListParams = z.infer<typeof customerListParamsSchema>;

/**
 * filterJson of GET /api/customers/duplicates: the email and phone of a customer about to be
 * created (or saved: `excludeId` leaves that customer out).
 * @example
 * const filter: CustomerDuplicateQuery = { email: 'dana@example.com', phone: '+1 836 489 5133' };
 */
export const customerDuplicateQuerySchema = z.object({
  email: z.string().max(limits.maxEmailLength, `Use at most ${limits.maxEmailLength} characters.`).optional(),
  phone: z.string().max(limits.maxPhoneLength, `Use at most ${limits.maxPhoneLength} characters.`).optional(),
  excludeId: z.string().optional(),
});
/**
 * What GET /api/customers/duplicates is asked about.
 * @example
 * const filter: CustomerDuplicateQuery = { email: 'dana@example.com' };
 */
export type CustomerDuplicateQuery = z.infer<typeof customerDuplicateQuerySchema>;

/**
 * An existing customer that has the same email (ignoring case) or whose phone's digits end with the
 * same six or more digits, and which of the two matched.
 * @example
 * const [first] = z.array(customerDuplicateSchema).parse(await res.json()); // { customer, matched: ['email'] }
 */
export const customerDuplicateSchema = z.object({
  customer: customerSchema,
  matched: z.array(z.enum(['email', 'phone'])).min(1),
});
/**
 * One match of GET /api/customers/duplicates.
 * @example
 * const say = (d: CustomerDuplicate) => `${d.customer.full_name} already has this ${d.matched.join(' and ')}`;
 */
export type CustomerDuplicate = z.infer<typeof customerDuplicateSchema>;

/**
 * One place a customer has work done (a house, a rental, a shop), with a short label.
 * @example
 * const home: ServiceAddress = { label: 'Home', address: '1 High Street, Leeds' };
 */
export const serviceAddressSchema = z.object({
  label: z.string().trim().max(60, 'Use at most 60 characters.').refine(hasNoNul, noNulMessage).default(''),
  address: z
    .string('The address must be text.')
    .trim()
    .min(1, 'Enter the address, or remove this one.')
    .max(limits.maxAddressLength, `Use at most ${limits.maxAddressLength} characters.`)
    .refine(hasNoNul, noNulMessage),
});
/**
 * A service address as sent.
 * @example
 * const rental: ServiceAddress = { label: 'Rental', address: '7 Mill Lane' };
 */
export type ServiceAddress = z.input<typeof serviceAddressSchema>;

/**
 * The body of PUT /api/customers/{id}/details: what Otto keeps about a customer beyond the spec's
 * fields (decision 0162): notes, and the places work is done (a job picks one as its address).
 * @example
 * customerDetailsInputSchema.parse({ notes: 'Dog in the garden', addresses: [{ label: 'Home', address: '1 High Street' }] });
 */
export const customerDetailsInputSchema = z.object({
  notes: z
    .string('The notes must be text.')
    .trim()
    .max(limits.maxCustomerNotesLength, `Use at most ${limits.maxCustomerNotesLength} characters.`)
    .refine(hasNoNul, noNulMessage)
    .default(''),
  addresses: z
    .array(serviceAddressSchema)
    .max(limits.maxServiceAddresses, `A customer has at most ${limits.maxServiceAddresses} service addresses.`)
    .default([]),
});
/**
 * What a client sends for a customer's notes and service addresses.
 * @example
 * const details: CustomerDetailsInput = { notes: 'Gate code 4411' };
 */
export type CustomerDetailsInput = z.input<typeof customerDetailsInputSchema>;

/**
 * A customer's notes and service addresses as answered; `modified_dt` is their version (the ETag),
 * 0 until first saved.
 * @example
 * const details = customerDetailsSchema.parse(await res.json());
 */
export const customerDetailsSchema = z.object({
  customer_id: z.string(),
  notes: z.string(),
  addresses: z.array(z.object({ label: z.string(), address: z.string() })),
  modified_dt: z.number().int(),
});
/**
 * A customer's notes and service addresses.
 * @example
 * const first = (d: CustomerDetails) => d.addresses[0]?.address ?? '';
 */
export type CustomerDetails = z.infer<typeof customerDetailsSchema>;
