import { z } from 'zod';
import { limits } from './limits';

/**
 * The spec's shape check for list parameters (section 5), sent as the `filterJson` query
 * parameter: queryText a string, offset and limit numbers, each when present. A filterJson that
 * fails it is ignored and 'Invalid filterJson param' is logged.
 * @example
 * const url = `/api/customers?filterJson=${encodeURIComponent(JSON.stringify({ queryText: 'smi' }))}`;
 */
export const listParamsShapeSchema = z.object({
  queryText: z.string().optional(),
  offset: z.number().optional(),
  limit: z.number().optional(),
  /**
   * Orders the list by this field instead of the spec's default (best matches first with search
   * text, else most recently modified first); with search text it still only lists the matches.
   * A value not in `customerSortFields` fails the shape check, so the whole filterJson is ignored.
   */
  sortBy: z.enum(['full_name', 'created_dt', 'modified_dt']).optional(),
  /** With `sortBy`: `asc` or `desc`; by default `defaultSortOrders[sortBy]`. */
  sortOrder: z.enum(['asc', 'desc']).optional(),
});
/**
 * Fields a customer list can be ordered by (`sortBy`).
 * @example
 * customerSortFields.includes('full_name'); // true
 */
export const customerSortFields = listParamsShapeSchema.shape.sortBy.unwrap().options;
/**
 * One of `customerSortFields`.
 * @example
 * const sortBy: CustomerSortField = 'created_dt';
 */
export type CustomerSortField = (typeof customerSortFields)[number];
/**
 * `asc` (A to Z, oldest, cheapest, soonest first) or `desc`.
 * @example
 * const order: SortOrder = 'desc';
 */
export type SortOrder = 'asc' | 'desc';

/**
 * The direction a `sortBy` takes when `sortOrder` is left out: names and titles A to Z, dates
 * newest first, except the scheduled date (soonest first), prices highest first, statuses in
 * lifecycle order.
 * @example
 * defaultSortOrders.full_name; // 'asc'
 */
export const defaultSortOrders = {
  full_name: 'asc',
  created_dt: 'desc',
  modified_dt: 'desc',
  title: 'asc',
  price_cents: 'desc',
  scheduled_start_dt: 'asc',
  status: 'asc',
} as const satisfies Record<string, SortOrder>;

/**
 * The list parameters sent in filterJson.
 * @example
 * const params: ListParams = { queryText: 'smi', limit: 10, offset: 20 };
 */
export type ListParams = z.infer<typeof listParamsShapeSchema>;

/**
 * The ranges a backend accepts for list parameters that passed the shape check; a value outside
 * them is answered with 400 and the issues.
 * @example
 * const { limit, offset } = listParamsRangeSchema.parse({ limit: 25 });
 */
export const listParamsRangeSchema = z.object({
  queryText: z
    .string()
    .max(limits.maxQueryTextLength, `Search text is limited to ${limits.maxQueryTextLength} characters.`)
    .optional(),
  offset: z.number().int('offset must be a whole number.').min(0, 'offset cannot be negative.').optional(),
  limit: z
    .number()
    .int('limit must be a whole number.')
    .min(1, 'limit must be at least 1.')
    .max(limits.maxPageSize, `limit can be at most ${limits.maxPageSize}.`)
    .optional(),
});
