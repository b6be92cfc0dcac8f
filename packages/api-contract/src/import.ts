import { z } from 'zod';
import { jobStatusSchema } from './job';
import { limits } from './limits';

/**
 * What an import does with a row that duplicates an existing record or an earlier row of the same
 * import: leave it out, write its values over the existing record, or add it anyway.
 * @example
 * const choice: ImportDuplicateChoice = 'skip';
 */
export const importDuplicateChoices = ['skip', 'update', 'create'] as const;
/**
 * One of `importDuplicateChoices`.
 * @example
 * const choice: ImportDuplicateChoice = 'update';
 */
export type ImportDuplicateChoice = (typeof importDuplicateChoices)[number];

const cell = z.string('Each value must be text.');

const rowsOf = <T extends z.ZodType>(row: T) =>
  z
    .array(row, 'rows must be a list of rows.')
    .min(1, 'There is no row to import.')
    .max(limits.maxImportRows, `Import at most ${limits.maxImportRows} rows at once. Split the file.`);

const common = {
  duplicates: z.enum(importDuplicateChoices, 'Choose what to do with duplicates: skip, update or create.').default('skip'),
  /** Check only: answer what the import would do, change nothing. */
  dryRun: z.boolean().default(false),
};

/**
 * One customer row of an import: the cells as text, before trimming. A row breaking a field rule
 * is not imported; the answer names it.
 * @example
 * const row: CustomerImportRow = { full_name: 'Zoë Ådahl', email: 'zoe@example.com', phone: '+46 70 123 45 67' };
 */
export const customerImportRowSchema = z.object({ full_name: cell, email: cell, phone: cell });
/**
 * A customer row of an import.
 * @example
 * const row: CustomerImportRow = { full_name: 'Ada', email: 'ada@example.com', phone: '555 0100' };
 */
export type CustomerImportRow = z.infer<typeof customerImportRowSchema>;

/**
 * The body of POST /api/customers/import. A duplicate is a row whose email (ignoring case) is an
 * existing customer's or an earlier row's.
 * @example
 * const body: CustomerImportBody = { rows: [{ full_name: 'Ada', email: 'ada@example.com', phone: '555 0100' }], duplicates: 'skip' };
 */
export const customerImportBodySchema = z.object({ rows: rowsOf(customerImportRowSchema), ...common });
/**
 * What a client sends to import customers.
 * @example
 * const body: CustomerImportBody = { rows, duplicates: 'update', dryRun: true };
 */
export type CustomerImportBody = z.input<typeof customerImportBodySchema>;

/**
 * One job row of an import. The customer is found by email, else by exact full name; a row that
 * finds none or several is not imported. Dates and prices arrive as numbers: the client reads the
 * file's formats (it knows the person's time zone and asks when a date order is ambiguous).
 * @example
 * const row: JobImportRow = { title: 'Boiler service', customer_email: 'ada@example.com', status: 'quote', price_cents: 12500 };
 */
export const jobImportRowSchema = z.object({
  title: cell,
  customer_email: cell.optional(),
  customer_name: cell.optional(),
  status: jobStatusSchema.optional(),
  price_cents: z.number().optional(),
  scheduled_start_dt: z.number().nullable().optional(),
  scheduled_end_dt: z.number().nullable().optional(),
  description: cell.optional(),
  service_address: cell.optional(),
  assignee: cell.optional(),
});
/**
 * A job row of an import.
 * @example
 * const row: JobImportRow = { title: 'Gutter clean', customer_name: 'Ada Lovelace' };
 */
export type JobImportRow = z.infer<typeof jobImportRowSchema>;

/**
 * The body of POST /api/jobs/import. A duplicate is a row with the same customer, title and
 * scheduled start as an existing job or an earlier row.
 * @example
 * const body: JobImportBody = { rows: [{ title: 'Boiler service', customer_email: 'ada@example.com' }] };
 */
export const jobImportBodySchema = z.object({ rows: rowsOf(jobImportRowSchema), ...common });
/**
 * What a client sends to import jobs.
 * @example
 * const body: JobImportBody = { rows, duplicates: 'skip' };
 */
export type JobImportBody = z.input<typeof jobImportBodySchema>;

/**
 * A row that was not imported because it breaks a rule: `index` is its place in `rows` (from 0),
 * `path` the field.
 * @example
 * const issue: ImportRowIssue = { index: 3, path: 'email', message: 'Enter an email address like name@example.com, or leave it empty.' };
 */
export const importRowIssueSchema = z.object({ index: z.number().int(), path: z.string(), message: z.string() });
/**
 * One problem of one row.
 * @example
 * const line = (i: ImportRowIssue) => `Row ${i.index + 2}: ${i.message}`;
 */
export type ImportRowIssue = z.infer<typeof importRowIssueSchema>;

/**
 * A duplicate row and what became of it: `existingId` is the record it matches (null when it
 * matches only an earlier row, `earlierIndex`).
 * @example
 * const d: ImportDuplicate = { index: 8, existingId: '42', earlierIndex: null, action: 'skipped' };
 */
export const importDuplicateSchema = z.object({
  index: z.number().int(),
  existingId: z.string().nullable(),
  earlierIndex: z.number().int().nullable(),
  action: z.enum(['skipped', 'updated', 'created']),
});
/**
 * A duplicate row of an import.
 * @example
 * const label = (d: ImportDuplicate) => (d.existingId ? `same as customer ${d.existingId}` : `same as row ${d.earlierIndex}`);
 */
export type ImportDuplicate = z.infer<typeof importDuplicateSchema>;

/**
 * The answer of an import (and of its dry run): how many rows were added, updated and skipped
 * (rows with issues and duplicates left out), the issues per row and the duplicates. `importId`
 * names the import for undo; null on a dry run or when nothing changed.
 * @example
 * const result = importResultSchema.parse(await res.json()); // { created: 4812, updated: 30, skipped: 12, … }
 */
export const importResultSchema = z.object({
  entity: z.enum(['customer', 'job']),
  dryRun: z.boolean(),
  importId: z.string().nullable(),
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  issues: z.array(importRowIssueSchema),
  duplicates: z.array(importDuplicateSchema),
});
/**
 * What an import did, or would do.
 * @example
 * const words = (r: ImportResult) => `Imported ${r.created}, updated ${r.updated}, skipped ${r.skipped}`;
 */
export type ImportResult = z.infer<typeof importResultSchema>;

/**
 * The last import that can still be undone (GET /api/imports/last), or null.
 * @example
 * const last = lastImportSchema.parse(await res.json()); // { id: '3', entity: 'customer', at: …, created: 4812, updated: 30 }
 */
export const lastImportSchema = z
  .object({
    id: z.string(),
    entity: z.enum(['customer', 'job']),
    at: z.number().int(),
    created: z.number().int(),
    updated: z.number().int(),
    skipped: z.number().int(),
  })
  .nullable();
/**
 * The undoable import, or null.
 * @example
 * const canUndo = (last: LastImport) => last !== null;
 */
export type LastImport = z.infer<typeof lastImportSchema>;

/**
 * The answer of POST /api/imports/last/undo: the import undone, how many records it removed and
 * how many it put back as they were.
 * @example
 * const undo = importUndoResultSchema.parse(await res.json()); // { id: '3', entity: 'customer', removed: 4812, restored: 30 }
 */
export const importUndoResultSchema = z.object({
  id: z.string(),
  entity: z.enum(['customer', 'job']),
  removed: z.number().int(),
  restored: z.number().int(),
});
/**
 * What an undo did.
 * @example
 * const words = (u: ImportUndoResult) => `Removed ${u.removed}, put back ${u.restored}`;
 */
export type ImportUndoResult = z.infer<typeof importUndoResultSchema>;

/**
 * Otto's own CSV export puts an apostrophe before a cell a spreadsheet would run as a formula
 * (`=`, `+`, `-`, `@`, tab, CR). Reading a cell back, that apostrophe is removed, so that an
 * export imported again gives back exactly what was exported.
 * @example
 * stripFormulaGuard("'=HYPERLINK(\"x\")"); // '=HYPERLINK("x")'
 * stripFormulaGuard("'quoted"); // "'quoted" (not a guard)
 */
export function stripFormulaGuard(cellText: string): string {
  return /^'[=+\-@\t\r]/.test(cellText) ? cellText.slice(1) : cellText;
}
