// The customer calls of the route table.
import { z } from 'zod';
import {
  customerDetailsInputSchema,
  customerDetailsSchema,
  customerDuplicateQuerySchema,
  customerDuplicateSchema,
  customerListParamsSchema,
  customerSchema,
  customerShapeSchema,
} from './customer';
import { customerImportBodySchema, importResultSchema } from './import';
import { limits } from './limits';
import { idParams, type RouteDefinition } from './route-definition';

/**
 * Every customer call of the spec (section 7), PATCH included.
 * @example
 * const { method, path } = customerRoutes.update; // 'PUT', '/customers/:id'
 */
export const customerRoutes = {
  list: {
    method: 'GET',
    path: '/customers',
    summary:
      'List customers: full-text search when queryText is non-empty (digits typed in any form also match inside phone numbers), else newest modified first; sortBy orders by name, created or modified instead. Archived customers only with archived: true.',
    filterJson: customerListParamsSchema,
    response: z.array(customerSchema),
    totalCount: true,
  },
  duplicates: {
    method: 'GET',
    path: '/customers/duplicates',
    summary:
      'Customers (not archived) that already have this email (ignoring case) or a phone whose digits end with these six or more digits: for a warning before creating a customer.',
    filterJson: customerDuplicateQuerySchema,
    invalidFilter: 'error',
    response: z.array(customerDuplicateSchema),
  },
  import: {
    method: 'POST',
    path: '/customers/import',
    summary:
      'Import many customers in one transaction (all or nothing). Rows breaking a field rule are skipped and named; duplicates (same email as a customer or an earlier row, ignoring case) are skipped, written over the existing customer, or created, as `duplicates` says. `dryRun` answers the same without saving.',
    body: customerImportBodySchema,
    errors: {
      400: `More than ${limits.maxImportRows} rows, or a body that is not a list of rows.`,
      413: `A body larger than ${limits.maxImportBodyBytes} bytes.`,
    },
    response: importResultSchema,
    maxBodyBytes: limits.maxImportBodyBytes,
    longRunning: true,
  },
  get: {
    method: 'GET',
    path: '/customers/:id',
    summary: 'One customer by id.',
    params: idParams,
    response: customerSchema,
    etag: true,
  },
  create: {
    method: 'POST',
    path: '/customers',
    summary: 'Create a customer; null when the body fails the shape check.',
    body: customerShapeSchema,
    invalidBody: 'null',
    response: customerSchema.nullable(),
    change: { entity: 'customer', kind: 'created' },
  },
  update: {
    method: 'PUT',
    path: '/customers/:id',
    summary: 'Update full_name, email and phone; null when the body fails the shape check.',
    params: idParams,
    body: customerShapeSchema,
    invalidBody: 'null',
    response: customerSchema.nullable(),
    change: { entity: 'customer', kind: 'updated' },
    etag: true,
  },
  patch: {
    method: 'PATCH',
    path: '/customers/:id',
    summary: 'Same as PUT.',
    params: idParams,
    body: customerShapeSchema,
    invalidBody: 'null',
    response: customerSchema.nullable(),
    change: { entity: 'customer', kind: 'updated' },
    etag: true,
  },
  archive: {
    method: 'POST',
    path: '/customers/:id/archive',
    summary:
      'Archive a customer: out of lists, searches, counts and pickers until restored; their jobs are kept. Archiving an archived customer changes nothing.',
    params: idParams,
    response: customerSchema,
    change: { entity: 'customer', kind: 'updated' },
    etag: true,
  },
  restore: {
    method: 'POST',
    path: '/customers/:id/restore',
    summary: 'Restore an archived customer (the Undo of an archive). Restoring one that is not archived changes nothing.',
    params: idParams,
    response: customerSchema,
    change: { entity: 'customer', kind: 'updated' },
    etag: true,
  },
  details: {
    method: 'GET',
    path: '/customers/:id/details',
    summary: "A customer's notes and service addresses (decision 0162): kept beside the spec's customer, which stays as the spec says.",
    params: idParams,
    response: customerDetailsSchema,
    etag: true,
  },
  putDetails: {
    method: 'PUT',
    path: '/customers/:id/details',
    summary: "Replace a customer's notes and service addresses (archived customers are kept as they are: restore first).",
    params: idParams,
    body: customerDetailsInputSchema,
    errors: { 409: 'The customer is archived.' },
    response: customerDetailsSchema,
    change: { entity: 'customer', kind: 'updated' },
    etag: true,
  },
  remove: {
    method: 'DELETE',
    path: '/customers/:id',
    summary: 'Delete an archived customer for good; answers the customer as it was.',
    params: idParams,
    errors: {
      409: 'The customer is not archived (archive first), still has jobs (delete those first), or has invoices (kept for the records: the customer stays archived).',
    },
    response: customerSchema,
    change: { entity: 'customer', kind: 'deleted' },
    etag: true,
  },
} as const satisfies Record<string, RouteDefinition>;
