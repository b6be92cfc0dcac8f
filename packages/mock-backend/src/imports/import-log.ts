import { jobStatuses, type ChangeEvent, type ImportUndoResult, type LastImport } from '@otto/api-contract';
import type { SqlValue } from '@otto/sqlite-store';
import type { SqlClient } from '../sql/types';
import { ApiError } from '../runtime/api-error';

export type ImportEntity = 'customer' | 'job';

const tableOf: Record<ImportEntity, 'customers' | 'jobs'> = { customer: 'customers', job: 'jobs' };

/**
 * The columns an import keeps of a record it writes over, to put back on undo: every column but
 * the id (a dialect's own columns, such as PostgreSQL's search vectors, are derived, not kept).
 */
const priorColumns: Record<ImportEntity, string> = {
  customer: 'full_name, phone, email, created_dt, modified_dt, archived_dt',
  job: `customer_id, title, description, service_address, status, assignee, scheduled_start_dt, scheduled_end_dt, price_cents,
    created_dt, modified_dt, archived_dt, ${jobStatuses.map((s) => `${s}_dt`).join(', ')}`,
};

/**
 * The log of one import being written: records added and the prior rows of records written over.
 * Rows are kept for the newest import only (migration 4).
 */
export class ImportLog {
  private readonly priors = new Set<number>();
  private readonly created = new Set<number>();
  readonly createdIds: number[] = [];
  readonly updatedIds: number[] = [];

  private constructor(
    private readonly db: SqlClient,
    readonly id: number,
    readonly entity: ImportEntity,
  ) {}

  /** Starts the log of a new import. */
  static async begin(db: SqlClient, entity: ImportEntity, at: number): Promise<ImportLog> {
    const row = await db.get<{ id: number }>('INSERT INTO imports (entity, at, created, updated, skipped) VALUES (?, ?, 0, 0, 0) RETURNING id', [
      entity,
      at,
    ]);
    return new ImportLog(db, (row as { id: number }).id, entity);
  }

  /** A record the import added; logged in one statement with all the others when the import finishes. */
  added(recordId: number): void {
    this.createdIds.push(recordId);
    this.created.add(recordId);
  }

  /** Call before writing over a record: keeps its row as it was (once per record). */
  async willUpdate(recordId: number): Promise<void> {
    if (this.priors.has(recordId) || this.created.has(recordId)) return;
    this.priors.add(recordId);
    this.updatedIds.push(recordId);
    const row = await this.db.get<Record<string, SqlValue>>(`SELECT ${priorColumns[this.entity]} FROM ${tableOf[this.entity]} WHERE id = ?`, [recordId]);
    await this.db.run('INSERT INTO import_rows (import_id, record_id, prior) VALUES (?, ?, ?)', [this.id, recordId, JSON.stringify(row)]);
  }

  /**
   * Writes the counts, and forgets the rows of older imports (only the newest can be undone). An
   * import that changed nothing is not kept: the one before stays undoable.
   */
  async finish(skipped: number): Promise<string | null> {
    if (this.createdIds.length === 0 && this.updatedIds.length === 0) {
      await this.db.run('DELETE FROM imports WHERE id = ?', [this.id]);
      return null;
    }
    await this.db.run('DELETE FROM import_rows WHERE import_id <> ?', [this.id]);
    const ids = JSON.stringify(this.createdIds);
    await this.db.run(
      `INSERT INTO import_rows (import_id, record_id, prior) SELECT ?, added.value, NULL FROM (${this.db.dialect.jsonIntegers}) AS added`,
      [this.id, ids],
    );
    await this.db.run('UPDATE imports SET created = ?, updated = ?, skipped = ? WHERE id = ?', [
      this.createdIds.length,
      this.updatedIds.length,
      skipped,
      this.id,
    ]);
    return String(this.id);
  }

  changes(): ChangeEvent[] {
    const events: ChangeEvent[] = [];
    if (this.createdIds.length) events.push({ entity: this.entity, kind: 'created', ids: this.createdIds.map(String) });
    if (this.updatedIds.length) events.push({ entity: this.entity, kind: 'updated', ids: this.updatedIds.map(String) });
    return events;
  }
}

interface ImportRow {
  id: number;
  entity: ImportEntity;
  at: number;
  created: number;
  updated: number;
  skipped: number;
  undone_dt: number | null;
}

async function lastRow(db: SqlClient): Promise<ImportRow | undefined> {
  const row = await db.get<ImportRow>('SELECT id, entity, at, created, updated, skipped, undone_dt FROM imports ORDER BY id DESC LIMIT 1');
  return row && row.undone_dt === null ? row : undefined;
}

/** The newest import, while it can be undone. */
export async function lastImport(db: SqlClient): Promise<LastImport> {
  const row = await lastRow(db);
  if (!row) return null;
  return { id: String(row.id), entity: row.entity, at: row.at, created: row.created, updated: row.updated, skipped: row.skipped };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Undoes the newest import: removes the records it added and writes back the rows it replaced.
 * Refuses (409, nothing changed) when one of those records changed since, or when a customer it
 * added has been given a job.
 */
export async function undoLastImport(db: SqlClient, now: number): Promise<{ data: ImportUndoResult; changes: ChangeEvent[] }> {
  const row = await lastRow(db);
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no import to undo: none was made, or the last one was already undone.');
  const table = tableOf[row.entity];
  const what = row.entity === 'customer' ? 'customer' : 'job';
  const changed =
    (
      await db.get<{ n: number }>(
        `SELECT count(*) AS n FROM ${table} t JOIN import_rows r ON r.record_id = t.id WHERE r.import_id = ? AND t.modified_dt <> ?`,
        [row.id, row.at],
      )
    )?.n ?? 0;
  if (changed > 0) {
    throw new ApiError(
      409,
      'CONFLICT',
      `${plural(changed, `${what} this import touched has`, `${what}s this import touched have`)} changed since, so the import cannot be undone without losing that change. Nothing was undone.`,
    );
  }
  if (row.entity === 'customer') {
    const withJobs =
      (
        await db.get<{ n: number }>(
          `SELECT count(DISTINCT j.customer_id) AS n FROM jobs j JOIN import_rows r ON r.record_id = j.customer_id
           WHERE r.import_id = ? AND r.prior IS NULL`,
          [row.id],
        )
      )?.n ?? 0;
    if (withJobs > 0) {
      throw new ApiError(
        409,
        'CONFLICT',
        `${plural(withJobs, 'customer this import added has', 'customers this import added have')} jobs now, so the import cannot be undone without losing them. Nothing was undone.`,
      );
    }
  }
  const added = (
    await db.all<{ record_id: number }>(
      `SELECT r.record_id FROM import_rows r JOIN ${table} t ON t.id = r.record_id WHERE r.import_id = ? AND r.prior IS NULL`,
      [row.id],
    )
  ).map((r) => r.record_id);
  // SQLite's search rows of customers and jobs have no delete trigger (nothing was deleted before imports).
  const forgetSearchRows = db.dialect.deleteSearchRows(table, 'SELECT record_id FROM import_rows WHERE import_id = ? AND prior IS NULL');
  if (forgetSearchRows !== null) await db.run(forgetSearchRows, [row.id]);
  await db.run(`DELETE FROM ${table} WHERE id IN (SELECT record_id FROM import_rows WHERE import_id = ? AND prior IS NULL)`, [row.id]);
  const priors = await db.all<{ record_id: number; prior: string }>(
    'SELECT record_id, prior FROM import_rows WHERE import_id = ? AND prior IS NOT NULL',
    [row.id],
  );
  const restored: number[] = [];
  for (const { record_id, prior } of priors) {
    const values = JSON.parse(prior) as Record<string, SqlValue>;
    const columns = Object.keys(values).filter((c) => c !== 'id' && /^[a-z_]+$/.test(c));
    const { changes } = await db.run(`UPDATE ${table} SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`, [
      ...columns.map((c) => values[c] ?? null),
      record_id,
    ]);
    if (changes > 0) restored.push(record_id);
  }
  await db.run('DELETE FROM import_rows WHERE import_id = ?', [row.id]);
  await db.run('UPDATE imports SET undone_dt = ? WHERE id = ?', [now, row.id]);
  const changes: ChangeEvent[] = [];
  if (added.length) changes.push({ entity: row.entity, kind: 'deleted', ids: added.map(String) });
  if (restored.length) changes.push({ entity: row.entity, kind: 'updated', ids: restored.map(String) });
  return { data: { id: String(row.id), entity: row.entity, removed: added.length, restored: restored.length }, changes };
}
