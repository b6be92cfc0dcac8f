// What the import's check (its dry run) says about a file as mapped, and the rows it leaves out.
import type { ImportDuplicateChoice, ImportResult } from '@otto/api-contract';
import { sendImport } from './api';
import { importFields, type ColumnMapping, type DateOrder, type ImportKind } from './import-core';
import type { ImportWorker } from './import-worker-client';
import type { BuildSummary } from './import-worker-protocol';

/** The word for one and for many records of each kind. */
export const nouns: Record<ImportKind, [string, string]> = { customers: ['customer', 'customers'], jobs: ['job', 'jobs'] };
/** `n` records of `kind` in words: '1 customer', '1,200 jobs'. */
export const count = (n: number, kind: ImportKind) => `${n.toLocaleString('en-US')} ${nouns[kind][n === 1 ? 0 : 1]}`;

/** What an undo did, in words: 'removed 6 customers, put back 1 customer as they were'. */
export const undoneWords = (done: { removed: number; restored: number }, kind: ImportKind) =>
  `removed ${count(done.removed, kind)}${done.restored ? `, put back ${count(done.restored, kind)} as they were` : ''}`;

/** How many problem rows and duplicates the preview lists (with their cells) before "…and N more". */
export const maxListed = 100;

/** One row left out, or one duplicate, as the preview lists it. */
export interface ListedRow {
  rowNumber: number;
  message: string;
}

/** What the check (the import's dry run) says about the file as mapped. */
export interface Check {
  built: BuildSummary;
  result: ImportResult;
  problems: ListedRow[];
  duplicates: ListedRow[];
  cells: Map<number, string[]>;
}

/** Every row left out, by row number: problems found reading the file and the import's issues. */
export function listProblems(built: BuildSummary, result: ImportResult): ListedRow[] {
  const byRow = new Map<number, string[]>();
  for (const p of built.problems) byRow.set(p.rowNumber, [p.message]);
  for (const issue of result.issues) {
    const rowNumber = built.rowNumbers[issue.index] ?? 0;
    const field = issue.path.replace(/_/g, ' ');
    byRow.set(rowNumber, [...(byRow.get(rowNumber) ?? []), `${field}: ${issue.message}`]);
  }
  return [...byRow].sort((a, b) => a[0] - b[0]).map(([rowNumber, messages]) => ({ rowNumber, message: messages.join(' ') }));
}

/**
 * Builds the rows in the worker as mapped and lets the import check them (a dry run); throws the
 * words of what is still to choose when a required column is not mapped.
 */
export async function checkImport(
  w: ImportWorker,
  kind: ImportKind,
  mapping: ColumnMapping,
  order: DateOrder | undefined,
  duplicates: ImportDuplicateChoice,
): Promise<Check> {
  // What is still to choose is said before the rows are built (building 50 000 rows takes a while).
  const missing = importFields[kind].filter((f) => f.required && (mapping[f.key] === null || mapping[f.key] === undefined));
  if (kind === 'jobs' && mapping.customer_email == null && mapping.customer_name == null) {
    throw new Error('Choose the column with the customer’s email or name.');
  }
  if (missing.length) throw new Error(`Choose the column for ${missing.map((f) => f.label.toLowerCase()).join(' and ')}.`);
  const built = await w.build(kind, mapping, order);
  const result =
    built.count > 0
      ? await sendImport(kind, built.rowsJson, duplicates, true)
      : { entity: kind === 'customers' ? 'customer' : 'job', dryRun: true, importId: null, created: 0, updated: 0, skipped: 0, issues: [], duplicates: [] } satisfies ImportResult;
  const problems = listProblems(built, result);
  const dupes = result.duplicates.map((d) => ({
    rowNumber: built.rowNumbers[d.index] ?? 0,
    // Said by what makes it the same (the row's own cells are shown beside it), never by an internal id.
    message: d.existingId
      ? kind === 'customers'
        ? 'A customer with this email is already in Otto'
        : 'This job is already in Otto (same customer, title and start)'
      : `Same as row ${built.rowNumbers[d.earlierIndex ?? 0] ?? '?'} of this file`,
  }));
  const cells = await w.records([...problems.slice(0, maxListed), ...dupes.slice(0, maxListed)].map((r) => r.rowNumber));
  return { built, result, problems, duplicates: dupes, cells };
}
