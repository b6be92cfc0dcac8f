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
});
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
