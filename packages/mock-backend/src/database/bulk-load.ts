// Many rows at once (seeding, fixtures, seed data): indexes and triggers set aside, their work done
// set-based at the end (issue 38).
import type { Database } from '@otto/sqlite-store';
import { customerFtsRowsSql } from './migrations';

/**
 * What each insert trigger of customers and jobs does, for every row inserted during a bulk load
 * (`id > ?`), in one statement per table it keeps. The same rows and the same sums as the triggers
 * make one row at a time (test/bulk-load.test.ts compares the two). Keyed by trigger: a database
 * with an insert trigger not named here (an extension's, a later migration's) loads row by row.
 */
const insertTriggerWork: Record<string, readonly string[]> = {
  // The import's statement for the same rows (its digits once per customer). A bulk load never
  // runs inside an import's deferral of these rows (fts_deferred), so the trigger's check of it holds.
  customers_fts_after_insert: [customerFtsRowsSql.replace('?', '?1')],
  customer_count_after_insert: ['UPDATE customer_count SET n = n + (SELECT count(*) FROM customers WHERE id > ?1 AND archived_dt IS NULL)'],
  customer_days_after_insert: [
    `INSERT INTO customer_days (day, n)
     SELECT created_dt / 86400000, count(*) FROM customers WHERE id > ?1 AND archived_dt IS NULL GROUP BY 1
     ON CONFLICT (day) DO UPDATE SET n = n + excluded.n`,
  ],
  customers_stamp_after_insert: ['UPDATE version_stamp SET last = max(last, coalesce((SELECT max(modified_dt) FROM customers WHERE id > ?1), last)) WHERE k = 1'],
  jobs_fts_after_insert: [
    `INSERT INTO jobs_fts (rowid, job_text)
     SELECT j.id, j.title || ' ' || j.description || ' ' || j.service_address || ' ' || coalesce(c.full_name, '')
     FROM jobs j LEFT JOIN customers c ON c.id = j.customer_id WHERE j.id > ?2`,
  ],
  jobs_status_fts_after_insert: [
    `INSERT INTO jobs_status_fts (rowid, job_text)
     SELECT ((SELECT k FROM job_counts WHERE status = j.status) << 40) | j.id,
       j.title || ' ' || j.description || ' ' || j.service_address || ' ' || coalesce(c.full_name, '')
     FROM jobs j LEFT JOIN customers c ON c.id = j.customer_id WHERE j.id > ?2
     -- In rowid order: FTS5 writes out its pending terms whenever a rowid is not above the last.
     ORDER BY 1`,
  ],
  job_counts_after_insert: ['UPDATE job_counts SET n = n + (SELECT count(*) FROM jobs j WHERE j.id > ?2 AND j.status = job_counts.status)'],
  paid_days_after_insert: [
    `INSERT INTO paid_days (day, cents, n)
     SELECT paid_dt / 86400000, sum(price_cents), count(*) FROM jobs
     WHERE id > ?2 AND status = 'paid' AND paid_dt IS NOT NULL AND archived_dt IS NULL GROUP BY 1
     ON CONFLICT (day) DO UPDATE SET cents = cents + excluded.cents, n = n + excluded.n`,
  ],
  jobs_stamp_after_insert: ['UPDATE version_stamp SET last = max(last, coalesce((SELECT max(modified_dt) FROM jobs WHERE id > ?2), last)) WHERE k = 1'],
};

/**
 * Runs `fill` (inserts into customers and jobs, nothing else) with their indexes and triggers set
 * aside, then does the insert triggers' work for every row it added in one statement per table,
 * then builds the indexes again and puts the triggers back, all in one transaction (a savepoint
 * inside the caller's; SQLite's schema changes are transactional: a failure puts everything back). A trigger runs as a
 * sub-program per row (about 50 µs each in WASM, ten of them per job) and each index takes its rows
 * one at a time; set-based, the same work is several times faster. Rows are only inserted: an
 * update or delete inside `fill` would not reach what the triggers keep.
 * `keepIndexes`: only the triggers are set aside (for rows added to tables that are large already).
 * @example
 * db.transaction(() => bulkLoad(db, () => { for (const row of rows) db.run('INSERT INTO customers …', row); }));
 */
export function bulkLoad<T>(db: Database, fill: () => T, { keepIndexes = false }: { keepIndexes?: boolean } = {}): T {
  // Its own transaction (a savepoint inside the caller's): the schema changes never outlive a failure.
  return db.transaction(() => {
    // keepIndexes: the rows go into tables already large (a first sync's later pages), where
    // building every index again would cost more than keeping them row by row.
    const schema = customerJobSchema(db).filter((s) => !keepIndexes || s.type === 'trigger');
    const triggers = schema.filter((s) => s.type === 'trigger').map((s) => ({ ...s, event: triggerEvent(s.sql) }));
    // A trigger whose event this file cannot read, or an insert trigger whose work it does not know
    // (an extension's, a later migration's): the rows go one by one, through every trigger.
    const known = (t: (typeof triggers)[number]) =>
      t.event !== undefined && (t.event.what !== 'INSERT' || (t.event.when === 'AFTER' && Object.hasOwn(insertTriggerWork, t.name)));
    if (!triggers.every(known)) return fill();
    const inserts = triggers.filter((t) => t.event?.what === 'INSERT');
    const before = db.get<{ customers: number | null; jobs: number | null }>('SELECT (SELECT max(id) FROM customers) AS customers, (SELECT max(id) FROM jobs) AS jobs');
    const ids = { '1': before?.customers ?? Number.MIN_SAFE_INTEGER, '2': before?.jobs ?? Number.MIN_SAFE_INTEGER };
    dropAll(db, schema);
    const result = fill();
    for (const t of inserts) doInsertWork(db, t.name, ids);
    // Indexes first (sorted once each), then the triggers, in the order they were made.
    for (const s of schema) db.exec(s.sql);
    return result;
  });
}

type SchemaItem = { type: 'index' | 'trigger'; name: string; sql: string };

/** The indexes and triggers of customers and jobs, indexes first, each kind in the order it was made. */
function customerJobSchema(db: Database): SchemaItem[] {
  return db.all<SchemaItem>(
    `SELECT type, name, sql FROM sqlite_schema
     WHERE tbl_name IN ('customers', 'jobs') AND type IN ('index', 'trigger') AND sql IS NOT NULL
     ORDER BY type = 'trigger', rowid`,
  );
}

function dropAll(db: Database, items: readonly SchemaItem[]): void {
  for (const s of items) db.run(`DROP ${s.type === 'index' ? 'INDEX' : 'TRIGGER'} "${s.name.replaceAll('"', '""')}"`);
}

/** An insert trigger's work for the customers above `ids['1']` and the jobs above `ids['2']`. */
function doInsertWork(db: Database, trigger: string, ids: Record<'1' | '2', number>): void {
  for (const sql of insertTriggerWork[trigger]!) {
    // Plain ? placeholders, one value each: better-sqlite3 binds no numbered ones from an array.
    const params: number[] = [];
    db.run(sql.replace(/\?([12])/g, (_, k: '1' | '2') => (params.push(ids[k]), '?')), params);
  }
}

/**
 * The update and delete triggers of customers and jobs as the migrations make them: with these and
 * the insert triggers above, and no other, `moveDates` knows every effect of moving dates.
 */
const knownUpdateAndDeleteTriggers = new Set([
  'jobs_fts_after_customer_rename', 'customers_fts_after_update', 'customers_fts_after_delete', 'jobs_status_fts_after_customer_rename',
  'customer_days_after_delete', 'customer_days_after_update', 'customer_count_after_delete', 'customer_count_after_archive',
  'customers_stamp_after_update', 'jobs_fts_after_update', 'job_counts_after_delete', 'job_counts_after_status', 'jobs_status_fts_after_update',
  'jobs_status_fts_after_delete', 'jobs_fts_after_delete', 'jobs_after_archive', 'jobs_after_restore', 'paid_days_after_delete',
  'paid_days_after_update', 'jobs_stamp_after_update',
]);

/**
 * Moves every date column (`columns`) of customers and jobs by `shift` ms: a first-start file's
 * settle. archived_dt moves apart, and only where set: a trigger `AFTER UPDATE OF archived_dt`
 * fires for every row the column is assigned in, changed or not. Set-based when every trigger of
 * the two tables is known: the indexes on moved columns and the triggers set aside, then what the
 * triggers keep from dates worked out again from the rows (the day totals of new customers and
 * payments, the version stamp); nothing else a trigger keeps depends on a date, and an archived row
 * stays out of every index and total it was out of. Row by row, through the triggers, when there
 * is one this file does not know (an extension's). At 100 000 customers, 15 s row by row in Node
 * (a trigger sub-program and index updates per row and column), 1.8 s set-based.
 * @example
 * db.transaction(() => moveDates(db, shift, { customers: ['created_dt', 'modified_dt'], jobs: ['paid_dt'] }));
 */
export function moveDates(db: Database, shift: number, columns: Record<'customers' | 'jobs', readonly string[]>): void {
  const update = () => {
    for (const table of ['customers', 'jobs'] as const) {
      const live = columns[table].filter((name) => name !== 'archived_dt');
      if (live.length > 0) db.run(`UPDATE ${table} SET ${live.map((name) => `${name} = ${name} + ?`).join(', ')}`, live.map(() => shift));
      if (columns[table].includes('archived_dt')) db.run(`UPDATE ${table} SET archived_dt = archived_dt + ? WHERE archived_dt IS NOT NULL`, [shift]);
    }
  };
  db.transaction(() => {
    const schema = customerJobSchema(db);
    const triggers = schema.filter((s) => s.type === 'trigger');
    if (!triggers.every((t) => Object.hasOwn(insertTriggerWork, t.name) || knownUpdateAndDeleteTriggers.has(t.name))) return update();
    const moved = [...columns.customers, ...columns.jobs].filter((name) => name !== 'archived_dt');
    const setAside = schema.filter((s) => s.type === 'trigger' || moved.some((name) => new RegExp(`\\b${name}\\b`).test(s.sql)));
    dropAll(db, setAside);
    update();
    // The day totals and the stamp, from every row (the insert triggers' work with no row before).
    db.run('DELETE FROM customer_days');
    db.run('DELETE FROM paid_days');
    const everyRow = { '1': Number.MIN_SAFE_INTEGER, '2': Number.MIN_SAFE_INTEGER };
    for (const name of ['customer_days_after_insert', 'customers_stamp_after_insert', 'paid_days_after_insert', 'jobs_stamp_after_insert']) doInsertWork(db, name, everyRow);
    for (const s of setAside) db.exec(s.sql);
  });
}

/** BEFORE, AFTER or INSTEAD OF, and INSERT, UPDATE or DELETE, of a CREATE TRIGGER statement; undefined when not plain. */
function triggerEvent(sql: string): { when: string; what: string } | undefined {
  const found = /^\s*CREATE\s+(?:TEMP(?:ORARY)?\s+)?TRIGGER\s+(?:IF\s+NOT\s+EXISTS\s+)?[\w$]+\s+(?:(BEFORE|AFTER|INSTEAD\s+OF)\s+)?(INSERT|UPDATE|DELETE)\b/i.exec(sql);
  if (!found) return undefined;
  return { when: (found[1] ?? 'BEFORE').replace(/\s+/g, ' ').toUpperCase(), what: found[2]!.toUpperCase() };
}
