import {
  customerInputSchema,
  customerRoutes,
  importRoutes,
  jobInputSchema,
  jobRoutes,
  type ImportDuplicate,
  type ImportDuplicateChoice,
  type ImportResult,
  type ImportRowIssue,
  type JobFields,
  type JobImportRow,
} from '@otto/api-contract';
import type { SqlValue } from '@otto/sqlite-store';
import type { SqlClient } from '../sql/types';
import { toApiIssues } from '../runtime/api-error';
import { defineHandler, type HandlerResult } from '../runtime/handler';
import { ImportLog, lastImport, undoLastImport } from './import-log';

/** Where a row's duplicate key was first seen: an existing record, or an earlier row (and its record, once written). */
interface Seen {
  existingId: number | null;
  earlierIndex: number | null;
  recordId: number | null;
}

/** What each row becomes, decided the same way for a dry run and for the real import. */
class ImportPlan {
  readonly issues: ImportRowIssue[] = [];
  readonly duplicates: ImportDuplicate[] = [];
  skipped = 0;
  created = 0;
  updated = 0;

  constructor(readonly choice: ImportDuplicateChoice) {}

  problem(index: number, issues: { path: string; message: string }[]): void {
    for (const issue of issues) this.issues.push({ index, ...issue });
    this.skipped++;
  }

  /** What row `index` does: create, update the record it duplicates, or skip (the user's choice for duplicates). */
  targetFor(index: number, seen: Seen | undefined): number | 'create' | 'skip' {
    if (!seen) return 'create';
    const base = { index, existingId: seen.existingId === null ? null : String(seen.existingId), earlierIndex: seen.earlierIndex };
    if (this.choice === 'skip') {
      this.duplicates.push({ ...base, action: 'skipped' });
      this.skipped++;
      return 'skip';
    }
    if (this.choice === 'create') {
      this.duplicates.push({ ...base, action: 'created' });
      return 'create';
    }
    this.duplicates.push({ ...base, action: 'updated' });
    this.updated++;
    return seen.existingId ?? seen.recordId ?? 'create';
  }

  /** A duplicate that turned out not to be writable over its record is a problem row instead. */
  retractUpdate(index: number, issues: { path: string; message: string }[]): void {
    this.duplicates.pop();
    this.updated--;
    this.problem(index, issues);
  }

  result(entity: 'customer' | 'job', dryRun: boolean, importId: string | null): ImportResult {
    return { entity, dryRun, importId, created: this.created, updated: this.updated, skipped: this.skipped, issues: this.issues, duplicates: this.duplicates };
  }
}

const emailKey = (email: string) => email.trim().toLowerCase();

const importCustomers = defineHandler(customerRoutes.import, async ({ sql: db, body, now }): Promise<HandlerResult> => {
  const at = now();
  const plan = new ImportPlan(body.duplicates);
  const seen = new Map<string, Seen>();
  for (const { id, email } of await db.all<{ id: number; email: string }>('SELECT id, email FROM customers WHERE archived_dt IS NULL ORDER BY id')) {
    const key = emailKey(email);
    // A customer with no email (phone only, decision 0162) is nobody's duplicate by email.
    if (key !== '' && !seen.has(key)) seen.set(key, { existingId: id, earlierIndex: null, recordId: id });
  }
  const log = body.dryRun ? undefined : await ImportLog.begin(db, 'customer', at);
  // The new customers' full-text rows are added in one statement at the end (migration 12).
  const deferFts = log ? await db.dialect.customerSearch.deferRows(db) : undefined;
  for (const [index, row] of body.rows.entries()) {
    const parsed = customerInputSchema.safeParse(row);
    if (!parsed.success) {
      plan.problem(index, toApiIssues(parsed.error.issues));
      continue;
    }
    const input = parsed.data;
    const key = emailKey(input.email);
    const target = plan.targetFor(index, key === '' ? undefined : seen.get(key));
    if (target === 'skip') continue;
    if (target === 'create') {
      plan.created++;
      // A dry run names the records it would add by a negative stand-in.
      let recordId = -1 - index;
      if (log) {
        recordId = (await insertedId(db, 'INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES (?, ?, ?, ?, ?) RETURNING id', [
          input.full_name,
          input.phone,
          input.email,
          at,
          at,
        ]));
        log.added(recordId);
      }
      if (key !== '' && !seen.has(key)) seen.set(key, { existingId: null, earlierIndex: index, recordId });
      continue;
    }
    if (log && target > 0) {
      await log.willUpdate(target);
      await db.run('UPDATE customers SET full_name = ?, email = ?, phone = ?, modified_dt = ? WHERE id = ?', [
        input.full_name,
        input.email,
        input.phone,
        at,
        target,
      ]);
    }
  }
  await deferFts?.finish();
  const importId = log ? await log.finish(plan.skipped) : null;
  return { data: plan.result('customer', body.dryRun, importId), changes: log?.changes() ?? [] };
});

/** The id a `… RETURNING id` statement gave its new row. */
async function insertedId(db: SqlClient, sql: string, params: SqlValue[]): Promise<number> {
  return ((await db.get<{ id: number }>(sql, params)) as { id: number }).id;
}

interface CustomerIndex {
  byEmail: Map<string, number[]>;
  byName: Map<string, number[]>;
}

async function customerIndex(db: SqlClient): Promise<CustomerIndex> {
  const byEmail = new Map<string, number[]>();
  const byName = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, id: number) => {
    const ids = map.get(key);
    if (ids) ids.push(id);
    else map.set(key, [id]);
  };
  for (const { id, email, full_name } of await db.all<{ id: number; email: string; full_name: string }>('SELECT id, email, full_name FROM customers WHERE archived_dt IS NULL')) {
    if (email.trim() !== '') add(byEmail, emailKey(email), id);
    add(byName, full_name, id);
  }
  return { byEmail, byName };
}

/** The row's customer: by email, else by exact full name; or the problem in words. */
function findCustomerOf(row: JobImportRow, index: CustomerIndex): number | { path: string; message: string } {
  const email = row.customer_email?.trim() ?? '';
  const name = row.customer_name?.trim() ?? '';
  if (email) {
    const ids = index.byEmail.get(emailKey(email)) ?? [];
    if (ids.length === 1) return ids[0] as number;
    if (ids.length > 1) return { path: 'customer_email', message: `${ids.length} customers have the email ${email}; give the customer's name instead.` };
  }
  if (name) {
    const ids = index.byName.get(name) ?? [];
    if (ids.length === 1) return ids[0] as number;
    if (ids.length > 1) return { path: 'customer_name', message: `${ids.length} customers are named “${name}”; give the customer's email to choose one.` };
  }
  if (!email && !name) return { path: 'customer_name', message: 'Name the customer: an email or a full name.' };
  const tried = [email && `the email ${email}`, name && `the name “${name}”`].filter(Boolean).join(' or ');
  return { path: email ? 'customer_email' : 'customer_name', message: `No customer has ${tried}. Add the customer first, or correct the row.` };
}

const jobKey = (customerId: number, title: string, start: number | null) => `${customerId}\u0000${title.trim().toLowerCase()}\u0000${start ?? ''}`;

const jobColumns = ['customer_id', 'title', 'description', 'service_address', 'status', 'assignee', 'scheduled_start_dt', 'scheduled_end_dt', 'price_cents'] as const;

function valueOf(job: JobFields, column: (typeof jobColumns)[number], customerId: number): SqlValue {
  return column === 'customer_id' ? customerId : job[column];
}

const importJobs = defineHandler(jobRoutes.import, async ({ sql: db, body, now }): Promise<HandlerResult> => {
  const at = now();
  const plan = new ImportPlan(body.duplicates);
  const customers = await customerIndex(db);
  const seen = new Map<string, Seen>();
  for (const job of await db.all<{ id: number; customer_id: number; title: string; scheduled_start_dt: number | null }>(
    'SELECT id, customer_id, title, scheduled_start_dt FROM jobs WHERE archived_dt IS NULL ORDER BY id',
  )) {
    const key = jobKey(job.customer_id, job.title, job.scheduled_start_dt);
    if (!seen.has(key)) seen.set(key, { existingId: job.id, earlierIndex: null, recordId: job.id });
  }
  const log = body.dryRun ? undefined : await ImportLog.begin(db, 'job', at);
  for (const [index, row] of body.rows.entries()) {
    const customerId = findCustomerOf(row, customers);
    if (typeof customerId !== 'number') {
      plan.problem(index, [customerId]);
      continue;
    }
    const { customer_email: _e, customer_name: _n, ...fields } = row;
    const parsed = jobInputSchema.safeParse({ ...fields, customer_id: String(customerId) });
    if (!parsed.success) {
      plan.problem(index, toApiIssues(parsed.error.issues));
      continue;
    }
    const job = parsed.data;
    if (job.status === 'scheduled' && job.scheduled_start_dt === null) {
      plan.problem(index, [{ path: 'scheduled_start_dt', message: 'A scheduled job needs a start time.' }]);
      continue;
    }
    const key = jobKey(customerId, job.title, job.scheduled_start_dt);
    const target = plan.targetFor(index, seen.get(key));
    if (target === 'skip') continue;
    if (target === 'create') {
      plan.created++;
      let recordId = -1 - index;
      if (log) {
        recordId = await insertedId(
          db,
          `INSERT INTO jobs (${jobColumns.join(', ')}, created_dt, modified_dt, ${job.status}_dt) VALUES (${jobColumns.map(() => '?').join(', ')}, ?, ?, ?) RETURNING id`,
          [...jobColumns.map((c) => valueOf(job, c, customerId)), at, at, at],
        );
        log.added(recordId);
      }
      if (!seen.has(key)) seen.set(key, { existingId: null, earlierIndex: index, recordId });
      continue;
    }
    if (target < 0) continue; // a dry run writing over a row it would add: nothing more to check
    // The fields the row gives are written over the job's; the whole must still follow the rules.
    const current = (await db.get<Record<string, SqlValue>>(`SELECT ${jobColumns.join(', ')} FROM jobs WHERE id = ?`, [target])) ?? {};
    const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    const merged = jobInputSchema.safeParse({ ...current, ...given, customer_id: String(customerId) });
    if (!merged.success) {
      plan.retractUpdate(index, toApiIssues(merged.error.issues));
      continue;
    }
    const next = merged.data;
    if (next.status === 'scheduled' && next.scheduled_start_dt === null) {
      plan.retractUpdate(index, [{ path: 'scheduled_start_dt', message: 'A scheduled job needs a start time.' }]);
      continue;
    }
    if (log) {
      await log.willUpdate(target);
      const stamp = current.status !== next.status ? `, ${next.status}_dt = ?` : '';
      await db.run(`UPDATE jobs SET ${jobColumns.map((c) => `${c} = ?`).join(', ')}, modified_dt = ?${stamp} WHERE id = ?`, [
        ...jobColumns.map((c) => valueOf(next, c, customerId)),
        at,
        ...(stamp ? [at] : []),
        target,
      ]);
    }
  }
  // Imported invoiced and paid jobs get invoices of their own, as migration 18 gave every such job.
  if (log) for (const statement of db.dialect.backfillInvoices) await db.run(statement);
  const importId = log ? await log.finish(plan.skipped) : null;
  return { data: plan.result('job', body.dryRun, importId), changes: log?.changes() ?? [] };
});

const last = defineHandler(importRoutes.last, async ({ sql }) => ({ data: await lastImport(sql) }));

const undo = defineHandler(importRoutes.undo, ({ sql, now }) => undoLastImport(sql, now()));

/** The handlers of the import routes: both imports, the last import and its undo. */
export const importHandlers = [importCustomers, importJobs, last, undo];
