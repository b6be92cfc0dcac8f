import { jobStatuses, type Job, type JobCounts, type JobFields, type JobSortField, type JobStatus, type SortOrder } from '@otto/api-contract';
import type { SqlValue } from '@otto/sqlite-store';
import type { SqlClient } from '../sql/types';
import { maxRankedMatches, nocase } from '../customers/customer-repository';
import { toPostgresTsQuery } from '../postgres/search';
import { toFtsQuery } from '../database/fts-query';
import { wholeWords } from '../database/fts-vocab';

type StatusDateColumns = { [S in JobStatus as `${S}_dt`]: number | null };

interface JobRow extends StatusDateColumns {
  id: number;
  customer_id: number;
  customer_name: string;
  title: string;
  description: string;
  service_address: string;
  status: JobStatus;
  assignee: string;
  scheduled_start_dt: number | null;
  scheduled_end_dt: number | null;
  price_cents: number;
  created_dt: number;
  modified_dt: number;
  archived_dt: number | null;
}

const statusColumns = jobStatuses.map((s) => `j.${s}_dt`).join(', ');
const columns = `j.id, j.customer_id, c.full_name AS customer_name, j.title, j.description, j.service_address,
  j.status, j.assignee, j.scheduled_start_dt, j.scheduled_end_dt, j.price_cents, j.created_dt, j.modified_dt, j.archived_dt, ${statusColumns}`;

function toJob(row: JobRow): Job {
  const status_dates = Object.fromEntries(jobStatuses.map((s) => [s, row[`${s}_dt`]])) as Job['status_dates'];
  return {
    id: String(row.id),
    customer_id: String(row.customer_id),
    customer_name: row.customer_name,
    title: row.title,
    description: row.description,
    service_address: row.service_address,
    status: row.status,
    assignee: row.assignee,
    scheduled_start_dt: row.scheduled_start_dt,
    scheduled_end_dt: row.scheduled_end_dt,
    price_cents: row.price_cents,
    created_dt: row.created_dt,
    modified_dt: row.modified_dt,
    status_dates,
    archived_dt: row.archived_dt,
  };
}

export interface JobFilter {
  queryText: string;
  status?: JobStatus;
  customerId?: number;
  /** Paid in `[paidFrom, paidBefore)`, epoch ms (the Overview's paid-per-month bars). */
  paidFrom?: number;
  paidBefore?: number;
}

/** True when the filter narrows by more than search text and status, so no counter or status-keyed index answers it. */
function narrowed(filter: JobFilter): boolean {
  return filter.customerId !== undefined || filter.paidFrom !== undefined || filter.paidBefore !== undefined;
}

/** The filter as SQL over `jobs j` (no join: every job has its customer); null when the search text can match nothing. */
async function filterSql(
  db: SqlClient,
  filter: JobFilter,
  withStatus: boolean,
): Promise<{ where: string; params: SqlValue[]; match: string | null } | null> {
  const conditions: string[] = [];
  const params: SqlValue[] = [];
  let match: string | null = null;
  if (filter.queryText.trim() !== '') {
    // SQLite: an FTS5 MATCH expression, a word no longer word extends searched as itself (one
    // doclist instead of a prefix merge; jobs_fts and jobs_status_fts hold the same words);
    // PostgreSQL: a tsquery with the same meaning (decision 0112).
    if (db.dialect === 'postgres') match = toPostgresTsQuery(filter.queryText);
    else {
      const whole = await wholeWords(db, 'jobs_fts', filter.queryText);
      match = toFtsQuery(filter.queryText, (word) => whole.has(word));
    }
    if (match === null) return null;
  }
  if (withStatus && filter.status) {
    conditions.push('j.status = ?');
    params.push(filter.status);
  }
  if (filter.customerId !== undefined) {
    conditions.push('j.customer_id = ?');
    params.push(filter.customerId);
  }
  // Both bounds name paid_dt, so jobs_paid_idx (partial: paid_dt IS NOT NULL) can serve them.
  if (filter.paidFrom !== undefined) {
    conditions.push('j.paid_dt >= ?');
    params.push(filter.paidFrom);
  }
  if (filter.paidBefore !== undefined) {
    conditions.push('j.paid_dt < ?');
    params.push(filter.paidBefore);
  }
  return { where: conditions.join(' AND '), params, match };
}

/**
 * Archived jobs are out of every list and count: the full-text indexes and the counters leave them
 * out (migration 6), and reads of the jobs table itself say so, which also lets SQLite use the
 * partial list indexes.
 */
const active = 'j.archived_dt IS NULL';

/** A job's search on PostgreSQL: its search vector against the tsquery (the first parameter). */
const pgMatch = 'j.search_vector @@ ?::tsquery';

const and = (...parts: string[]) => {
  const kept = parts.filter(Boolean);
  return kept.length ? `WHERE ${kept.join(' AND ')}` : '';
};

/** The counters of migration 3: jobs per status, kept by triggers (summed: PostgreSQL keeps them in shards). */
async function statusCounts(db: SqlClient): Promise<Map<JobStatus, number>> {
  return new Map((await db.all<{ status: JobStatus; n: number }>('SELECT status, sum(n) AS n FROM job_counts GROUP BY status')).map((r) => [r.status, r.n]));
}

/** jobs_status_fts rowids of a status lie in [k << 40, (k + 1) << 40) (migration 3). */
const statusKeyShift = 2 ** 40;

/**
 * A search's matches per status: a count over each status's rowid range of jobs_status_fts. One
 * pass grouped by `rowid >> 40` reads the same doclist but sorts every match into a temporary
 * b-tree first: at 100 000 customers (17 960 matches for `repair`) 5.8 ms against 3.0 for the seven
 * ranges, in Node.
 */
async function searchCountsByStatus(db: SqlClient, match: string): Promise<{ status: JobStatus; n: number }[]> {
  const keys = await db.all<{ status: JobStatus; k: number }>('SELECT DISTINCT status, k FROM job_counts');
  const counts: { status: JobStatus; n: number }[] = [];
  for (const { status, k } of keys) counts.push({ status, n: await countInRange(db, match, k) });
  return counts;
}

/** The number a status has in the high bits of jobs_status_fts rowids. */
async function statusKey(db: SqlClient, status: JobStatus): Promise<number> {
  return (await db.get<{ k: number }>('SELECT k FROM job_counts WHERE status = ?', [status]))?.k ?? 0;
}

/** A search's matches with one status: a rowid range of jobs_status_fts. */
async function searchCountWithStatus(db: SqlClient, match: string, status: JobStatus): Promise<number> {
  return countInRange(db, match, await statusKey(db, status));
}

/** The matches of `match` among the jobs whose status has the key `k`. */
async function countInRange(db: SqlClient, match: string, k: number): Promise<number> {
  const range = [match, k * statusKeyShift, (k + 1) * statusKeyShift];
  return (await db.get<{ n: number }>('SELECT count(*) AS n FROM jobs_status_fts WHERE jobs_status_fts MATCH ? AND rowid >= ? AND rowid < ?', range))?.n ?? 0;
}

/** How many jobs match; read from the counters when the filter is at most a status. */
async function countMatching(db: SqlClient, filter: JobFilter, sql: NonNullable<Awaited<ReturnType<typeof filterSql>>>): Promise<number> {
  if (sql.match === null) {
    if (!narrowed(filter)) {
      const counts = await statusCounts(db);
      return filter.status ? (counts.get(filter.status) ?? 0) : [...counts.values()].reduce((a, b) => a + b, 0);
    }
    return (await db.get<{ n: number }>(`SELECT count(*) AS n FROM jobs j ${and(active, sql.where)}`, sql.params))?.n ?? 0;
  }
  if (db.dialect === 'postgres') {
    return (await db.get<{ n: number }>(`SELECT count(*) AS n FROM jobs j ${and(active, pgMatch, sql.where)}`, [sql.match, ...sql.params]))?.n ?? 0;
  }
  if (sql.where === '') {
    return (await db.get<{ n: number }>('SELECT count(*) AS n FROM jobs_fts WHERE jobs_fts MATCH ?', [sql.match]))?.n ?? 0;
  }
  if (!narrowed(filter) && filter.status) return searchCountWithStatus(db, sql.match, filter.status);
  return (
    (
      await db.get<{ n: number }>(`SELECT count(*) AS n FROM jobs_fts f JOIN jobs j ON j.id = f.rowid ${and('jobs_fts MATCH ?', sql.where)}`, [
        sql.match,
        ...sql.params,
      ])
    )?.n ?? 0
  );
}

/** An order a job list can be asked for (filterJson `sortBy`, `sortOrder`). */
export interface JobSort {
  by: JobSortField;
  order: SortOrder;
}

/**
 * A status's place in the lifecycle, as SQL over a jobs row (`alias.` or no alias); migration 5
 * indexes exactly this expression, so a list in lifecycle order is read off that index.
 */
export function statusRankSql(alias = ''): string {
  return `CASE ${alias}status ${jobStatuses.map((s, i) => `WHEN '${s}' THEN ${i}`).join(' ')} END`;
}

/**
 * ORDER BY terms for a sort over `jobs j`, each served by an index of migration 5 read forwards
 * or backwards (a descending order is the ascending one reversed), the id breaking ties. Jobs with
 * no scheduled date come last both ways: ascending reads the `(scheduled_start_dt IS NULL, …)`
 * index, descending the plain one backwards, where NULL, the smallest value, comes last.
 */
function jobOrder(db: SqlClient, sort: JobSort): string {
  const dir = sort.order === 'asc' ? 'ASC' : 'DESC';
  switch (sort.by) {
    case 'title':
      return `${nocase(db, 'j.title')} ${dir}, j.id ${dir}`;
    case 'price_cents':
      return `j.price_cents ${dir}, j.id ${dir}`;
    case 'scheduled_start_dt':
      // PostgreSQL sorts NULL as the largest value: it must be told to keep them last.
      if (dir === 'ASC') return '(j.scheduled_start_dt IS NULL), j.scheduled_start_dt, j.id';
      return db.dialect === 'postgres' ? 'j.scheduled_start_dt DESC NULLS LAST, j.id DESC' : 'j.scheduled_start_dt DESC, j.id DESC';
    case 'status':
      return dir === 'ASC' ? `${statusRankSql('j.')}, j.modified_dt DESC, j.id DESC` : `${statusRankSql('j.')} DESC, j.modified_dt, j.id`;
    case 'modified_dt':
      return `j.modified_dt ${dir}, j.id ${dir}`;
  }
}

/**
 * One page of jobs: with search text, best matches first (bm25, then newest modified), or newest
 * first when more than `maxRankedMatches` jobs match; without, newest modified first. A `sort`
 * replaces either order (with search text it orders the matches).
 */
export async function listJobs(
  db: SqlClient,
  filter: JobFilter,
  page: { limit: number; offset: number },
  sort?: JobSort,
): Promise<{ rows: Job[]; total: number }> {
  const sql = await filterSql(db, filter, true);
  if (!sql) return { rows: [], total: 0 };
  const total = await countMatching(db, filter, sql);
  if (total === 0 || page.offset >= total) return { rows: [], total };
  let rows: JobRow[];
  if (sql.match === null) {
    const order = sort ? jobOrder(db, sort) : 'j.modified_dt DESC, j.id DESC';
    // The page's ids come from an index alone (a deep offset skips index entries, not rows); the
    // customer's name is joined for those ten.
    rows = await db.all<JobRow>(
      `SELECT ${columns} FROM jobs j JOIN customers c ON c.id = j.customer_id
       WHERE j.id IN (SELECT j.id FROM jobs j ${and(active, sql.where)} ORDER BY ${order} LIMIT ? OFFSET ?)
       ORDER BY ${order}`,
      [...sql.params, page.limit, page.offset],
    );
  } else if (db.dialect === 'postgres') {
    // The same order as SQLite's (below): best matches first, newest first past maxRankedMatches.
    const ranked = !sort && total <= maxRankedMatches;
    const order = sort ? jobOrder(db, sort) : ranked ? 'ts_rank(j.search_vector, ?::tsquery) DESC, j.modified_dt DESC, j.id DESC' : 'j.id DESC';
    rows = await db.all<JobRow>(
      `SELECT ${columns} FROM jobs j JOIN customers c ON c.id = j.customer_id ${and(active, pgMatch, sql.where)}
       ORDER BY ${order} LIMIT ? OFFSET ?`,
      [sql.match, ...sql.params, ...(ranked ? [sql.match] : []), page.limit, page.offset],
    );
  } else {
    // As for customers (decision 0002): more than maxRankedMatches matches are listed newest
    // first, read off the full-text index in rowid order, instead of scoring every match.
    const order = sort ? jobOrder(db, sort) : total <= maxRankedMatches ? 'f.rank, j.modified_dt DESC, j.id DESC' : 'f.rowid DESC';
    if (!narrowed(filter) && filter.status) {
      // A status tab: its matches are a rowid range of the status-keyed index, whose bm25 equals
      // jobs_fts's (the same text for the same jobs), so only the tab's matches are looked up.
      const k = await statusKey(db, filter.status);
      rows = await db.all<JobRow>(
        `SELECT ${columns} FROM jobs_status_fts f JOIN jobs j ON j.id = (f.rowid & ${statusKeyShift - 1}) JOIN customers c ON c.id = j.customer_id
         WHERE jobs_status_fts MATCH ? AND f.rowid >= ? AND f.rowid < ? ORDER BY ${order} LIMIT ? OFFSET ?`,
        [sql.match, k * statusKeyShift, (k + 1) * statusKeyShift, page.limit, page.offset],
      );
    } else {
      rows = await db.all<JobRow>(
        `SELECT ${columns} FROM jobs_fts f JOIN jobs j ON j.id = f.rowid JOIN customers c ON c.id = j.customer_id
         ${and('jobs_fts MATCH ?', sql.where)} ORDER BY ${order} LIMIT ? OFFSET ?`,
        [sql.match, ...sql.params, page.limit, page.offset],
      );
    }
  }
  return { rows: rows.map(toJob), total };
}

/** How many jobs match the filter (its status aside), per status. */
export async function countJobs(db: SqlClient, filter: JobFilter): Promise<JobCounts> {
  const counts = Object.fromEntries([['all', 0], ...jobStatuses.map((s) => [s, 0])]) as JobCounts;
  const sql = await filterSql(db, filter, false);
  if (!sql) return counts;
  let rows: { status: JobStatus; n: number }[];
  if (sql.match === null) {
    rows =
      sql.where === ''
        ? [...(await statusCounts(db))].map(([status, n]) => ({ status, n }))
        : await db.all(`SELECT j.status AS status, count(*) AS n FROM jobs j ${and(active, sql.where)} GROUP BY j.status`, sql.params);
  } else if (db.dialect === 'postgres') {
    rows = await db.all(`SELECT j.status AS status, count(*) AS n FROM jobs j ${and(active, pgMatch, sql.where)} GROUP BY j.status`, [
      sql.match,
      ...sql.params,
    ]);
  } else if (sql.where === '') {
    rows = await searchCountsByStatus(db, sql.match);
  } else {
    rows = await db.all(`SELECT j.status AS status, count(*) AS n FROM jobs_fts f JOIN jobs j ON j.id = f.rowid ${and('jobs_fts MATCH ?', sql.where)} GROUP BY j.status`, [
      sql.match,
      ...sql.params,
    ]);
  }
  for (const row of rows) {
    counts[row.status] = row.n;
    counts.all += row.n;
  }
  return counts;
}

/**
 * The job, or undefined. `lock`: the job's row stays locked until the write's transaction ends
 * (PostgreSQL's `FOR UPDATE`), so that two writers who read it first cannot both act on what they
 * read; SQLite runs one write at a time anyway.
 */
export async function findJob(db: SqlClient, id: number, { lock = false }: { lock?: boolean } = {}): Promise<Job | undefined> {
  const forUpdate = lock && db.dialect === 'postgres' ? ' FOR UPDATE OF j' : '';
  const row = await db.get<JobRow>(`SELECT ${columns} FROM jobs j JOIN customers c ON c.id = j.customer_id WHERE j.id = ?${forUpdate}`, [id]);
  return row && toJob(row);
}

/** Whether the customer exists and is archived (`undefined`: no such customer). */
export async function customerArchived(db: SqlClient, id: number): Promise<boolean | undefined> {
  const row = await db.get<{ archived_dt: number | null }>('SELECT archived_dt FROM customers WHERE id = ?', [id]);
  return row === undefined ? undefined : row.archived_dt !== null;
}

function fieldValues(fields: JobFields, customerId: number): SqlValue[] {
  return [
    customerId,
    fields.title,
    fields.description,
    fields.service_address,
    fields.status,
    fields.assignee,
    fields.scheduled_start_dt,
    fields.scheduled_end_dt,
    fields.price_cents,
  ];
}

export async function insertJob(db: SqlClient, fields: JobFields, customerId: number, now: number): Promise<Job> {
  const inserted = await db.get<{ id: number }>(
    `INSERT INTO jobs (customer_id, title, description, service_address, status, assignee, scheduled_start_dt,
       scheduled_end_dt, price_cents, created_dt, modified_dt, ${fields.status}_dt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [...fieldValues(fields, customerId), now, now, now],
  );
  return (await findJob(db, (inserted as { id: number }).id)) as Job;
}

/** Writes every field; stamps the status's timestamp when the status changed. */
export async function updateJob(db: SqlClient, id: number, fields: JobFields, customerId: number, statusChanged: boolean, now: number): Promise<Job> {
  await db.run(
    `UPDATE jobs SET customer_id = ?, title = ?, description = ?, service_address = ?, status = ?, assignee = ?,
       scheduled_start_dt = ?, scheduled_end_dt = ?, price_cents = ?, modified_dt = ?
       ${statusChanged ? `, ${fields.status}_dt = ?` : ''}
     WHERE id = ?`,
    [...fieldValues(fields, customerId), now, ...(statusChanged ? [now] : []), id],
  );
  return (await findJob(db, id)) as Job;
}

/** One page of archived jobs (of one customer, when named), most recently archived first. */
export async function listArchivedJobs(
  db: SqlClient,
  customerId: number | undefined,
  page: { limit: number; offset: number },
): Promise<{ rows: Job[]; total: number }> {
  const where = customerId === undefined ? '' : 'AND j.customer_id = ?';
  const params = customerId === undefined ? [] : [customerId];
  const total = (await db.get<{ n: number }>(`SELECT count(*) AS n FROM jobs j WHERE j.archived_dt IS NOT NULL ${where}`, params))?.n ?? 0;
  const rows = await db.all<JobRow>(
    `SELECT ${columns} FROM jobs j JOIN customers c ON c.id = j.customer_id WHERE j.archived_dt IS NOT NULL ${where}
     ORDER BY j.archived_dt DESC, j.id DESC LIMIT ? OFFSET ?`,
    [...params, page.limit, page.offset],
  );
  return { rows: rows.map(toJob), total };
}

/** Sets or clears archived_dt (and modified_dt); triggers keep the counters and indexes. */
export async function setJobArchived(db: SqlClient, id: number, archived: boolean, now: number): Promise<Job> {
  await db.run('UPDATE jobs SET archived_dt = ?, modified_dt = ? WHERE id = ?', [archived ? now : null, now, id]);
  return (await findJob(db, id)) as Job;
}

export async function deleteJob(db: SqlClient, id: number): Promise<void> {
  await db.run('DELETE FROM jobs WHERE id = ?', [id]);
}

/** Forgets the job's last one-click move (an edit ends the chance to undo it). */
export async function forgetJobMove(db: SqlClient, id: number): Promise<void> {
  await db.run('DELETE FROM job_moves WHERE job_id = ?', [id]);
}

/** The last one-click move of a job (migration 6). */
export interface JobMoveRow {
  job_id: number;
  from_status: JobStatus;
  to_status: JobStatus;
  moved_dt: number;
  version: number;
  previous_status_dt: number | null;
  previous_start_dt: number | null;
  previous_end_dt: number | null;
}

/**
 * Moves a job to `status` (stamping that status's date), with a new schedule when given, and
 * remembers what it was so that exactly this move can be reverted.
 */
export async function moveJob(
  db: SqlClient,
  job: Job,
  status: JobStatus,
  schedule: { scheduled_start_dt: number | null; scheduled_end_dt: number | null },
  now: number,
): Promise<Job> {
  const id = Number(job.id);
  await db.run(
    `UPDATE jobs SET status = ?, scheduled_start_dt = ?, scheduled_end_dt = ?, modified_dt = ?, ${status}_dt = ? WHERE id = ?`,
    [status, schedule.scheduled_start_dt, schedule.scheduled_end_dt, now, now, id],
  );
  await db.run(
    `INSERT INTO job_moves (job_id, from_status, to_status, moved_dt, version, previous_status_dt, previous_start_dt, previous_end_dt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (job_id) DO UPDATE SET from_status = excluded.from_status, to_status = excluded.to_status, moved_dt = excluded.moved_dt,
       version = excluded.version, previous_status_dt = excluded.previous_status_dt, previous_start_dt = excluded.previous_start_dt,
       previous_end_dt = excluded.previous_end_dt`,
    [id, job.status, status, now, now, job.status_dates[status], job.scheduled_start_dt, job.scheduled_end_dt],
  );
  return (await findJob(db, id)) as Job;
}

export function findJobMove(db: SqlClient, jobId: number): Promise<JobMoveRow | undefined> {
  return db.get<JobMoveRow>('SELECT * FROM job_moves WHERE job_id = ?', [jobId]);
}

/** Puts a job back to where the move found it: status, that status's date, schedule. */
export async function revertJobMove(db: SqlClient, move: JobMoveRow, now: number): Promise<Job> {
  await db.run(
    `UPDATE jobs SET status = ?, scheduled_start_dt = ?, scheduled_end_dt = ?, modified_dt = ?, ${move.to_status}_dt = ? WHERE id = ?`,
    [move.from_status, move.previous_start_dt, move.previous_end_dt, now, move.previous_status_dt, move.job_id],
  );
  await db.run('DELETE FROM job_moves WHERE job_id = ?', [move.job_id]);
  return (await findJob(db, move.job_id)) as Job;
}
