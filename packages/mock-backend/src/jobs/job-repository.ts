import { jobStatuses, scheduleLookbackMs, type Job, type ScheduleJob, type JobCounts, type JobFields, type JobStatus } from '@otto/api-contract';
import { newId } from '../sync/record-ids';
import type { SqlValue } from '@otto/sqlite-store';
import type { SqlClient } from '../sql/types';
import { active, and, jobColumns as columns, jobOrder, narrowed, toJob, unscheduledSql, type JobFilter, type JobFilterSql, type JobRow, type JobSort } from './job-rows';

export type { JobFilter, JobSort } from './job-rows';

/** The filter as SQL over `jobs j` (no join: every job has its customer); null when the search text can match nothing. */
async function filterSql(db: SqlClient, filter: JobFilter, withStatus: boolean): Promise<JobFilterSql | null> {
  const conditions: string[] = [];
  const params: SqlValue[] = [];
  let match: string | null = null;
  if (filter.queryText.trim() !== '') {
    // The dialect's match: an FTS5 MATCH expression on SQLite, a tsquery with the same meaning on
    // PostgreSQL (decision 0112).
    match = await db.dialect.jobSearch.match(db, filter.queryText);
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
  // As the Overview counts them (report-summary.ts), so the list it links to holds exactly those.
  if (filter.openBefore !== undefined) {
    conditions.push("j.status IN ('scheduled', 'in_progress') AND j.scheduled_start_dt < ?");
    params.push(filter.openBefore);
  }
  if (filter.unscheduled) conditions.push(unscheduledSql);
  return { where: conditions.join(' AND '), params, match };
}

/**
 * The index a list without search text must read, where SQLite's planner would pick a worse one:
 * the unscheduled jobs' own partial index (migration 17), which it passes over for the start
 * index's `IS NULL` without statistics.
 */
function listIndex(db: SqlClient, filter: JobFilter): string {
  return filter.unscheduled && filter.customerId === undefined ? db.dialect.indexedBy('jobs_unscheduled_idx') : '';
}

/** The counters of migration 3: jobs per status, kept by triggers (summed: PostgreSQL keeps them in shards). */
async function statusCounts(db: SqlClient): Promise<Map<JobStatus, number>> {
  return new Map((await db.all<{ status: JobStatus; n: number }>('SELECT status, sum(n) AS n FROM job_counts GROUP BY status')).map((r) => [r.status, r.n]));
}

/** How many jobs match; read from the counters when the filter is at most a status. */
async function countMatching(db: SqlClient, filter: JobFilter, sql: JobFilterSql): Promise<number> {
  if (sql.match === null) {
    if (!narrowed(filter)) {
      const counts = await statusCounts(db);
      return filter.status ? (counts.get(filter.status) ?? 0) : [...counts.values()].reduce((a, b) => a + b, 0);
    }
    return (await db.get<{ n: number }>(`SELECT count(*) AS n FROM jobs j ${listIndex(db, filter)} ${and(active, sql.where)}`, sql.params))?.n ?? 0;
  }
  return db.dialect.jobSearch.count(db, filter, { ...sql, match: sql.match });
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
       WHERE j.id IN (SELECT j.id FROM jobs j ${listIndex(db, filter)} ${and(active, sql.where)} ORDER BY ${order} LIMIT ? OFFSET ?)
       ORDER BY ${order}`,
      [...sql.params, page.limit, page.offset],
    );
  } else {
    rows = await db.dialect.jobSearch.page(db, filter, { ...sql, match: sql.match }, { ...page, total }, sort);
  }
  return { rows: rows.map(toJob), total };
}

/** The columns of a job as the schedule shows it (`scheduleJobSchema`), over `jobs j JOIN customers c`. */
const scheduleColumns = `j.id, j.customer_id, c.full_name AS customer_name, j.title, j.service_address, j.status, j.assignee,
  j.scheduled_start_dt, j.scheduled_end_dt, j.modified_dt`;

type ScheduleJobRow = Pick<JobRow, 'id' | 'customer_id' | 'customer_name' | 'title' | 'service_address' | 'status' | 'assignee' | 'scheduled_start_dt' | 'scheduled_end_dt' | 'modified_dt'>;

function toScheduleJob(row: ScheduleJobRow): ScheduleJob {
  return {
    id: String(row.id),
    customer_id: String(row.customer_id),
    customer_name: row.customer_name,
    title: row.title,
    service_address: row.service_address,
    status: row.status,
    assignee: row.assignee,
    scheduled_start_dt: row.scheduled_start_dt,
    scheduled_end_dt: row.scheduled_end_dt,
    modified_dt: row.modified_dt,
  };
}

/** A job of the schedule with the day it is shown on and how many jobs its person has that day. */
export interface ScheduleRow {
  job: ScheduleJob;
  /** Index of the day it is shown on (a job that began before the first day: 0). */
  day: number;
  /** How many jobs that person has on that day. */
  cellTotal: number;
}

/**
 * The jobs on the calendar over the days whose bounds are `bounds` (each day's start, then the last
 * day's end), for each of `lanes` (people; '' the unassigned): a scheduled start, not cancelled,
 * not archived, and a start within the days or an end after the first day's start (a job that
 * began up to `scheduleLookbackMs` earlier, shown on the first day); at most `perCell` per person
 * per day, earliest first, at most `max` in all (`truncated`), each with how many jobs its
 * person's day holds. Each person's day is a range of migration 17's jobs_lane_idx (person, start):
 * counted inside the index, and its first `perCell` read whole; so the work grows with the people,
 * the days and the jobs shown, not with all the jobs of those days (at 300 000 jobs a week holds
 * about 5 000, and reading them all into JavaScript took 25 ms).
 */
export async function listSchedule(
  db: SqlClient,
  lanes: readonly string[],
  bounds: readonly number[],
  perCell: number,
  max: number,
): Promise<{ rows: ScheduleRow[]; truncated: boolean }> {
  const from = bounds[0] as number;
  const cells: SqlValue[][] = [];
  for (const lane of lanes) {
    for (let d = 0; d + 1 < bounds.length; d++) cells.push([lane, d, d === 0 ? from - scheduleLookbackMs : (bounds[d] as number), bounds[d + 1] as number]);
  }
  if (cells.length === 0) return { rows: [], truncated: false };
  const values = (n: number) => Array.from({ length: n }, () => '(CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS BIGINT), CAST(? AS BIGINT))').join(', ');
  const inCell = `k.assignee = cell.lane AND k.archived_dt IS NULL AND k.scheduled_start_dt IS NOT NULL AND k.status <> 'cancelled'
    AND k.scheduled_start_dt >= cell.lo AND k.scheduled_start_dt < cell.hi AND (k.scheduled_start_dt >= ? OR k.scheduled_end_dt > ?)`;
  const laneIndex = db.dialect.indexedBy('jobs_lane_idx');
  const totals = await db.all<{ lane: string; d: number; n: number }>(
    `WITH cell(lane, d, lo, hi) AS (VALUES ${values(cells.length)})
     SELECT cell.lane AS lane, cell.d AS d, (SELECT count(*) FROM jobs k ${laneIndex} WHERE ${inCell}) AS n FROM cell`,
    [...cells.flat(), from, from],
  );
  const busy = totals.filter((t) => Number(t.n) > 0);
  if (busy.length === 0) return { rows: [], truncated: false };
  const total = new Map(busy.map((t) => [`${t.lane}\u0000${t.d}`, Number(t.n)]));
  const busyCells = cells.filter(([lane, d]) => total.has(`${String(lane)}\u0000${String(d)}`));
  // Each busy cell's first jobs, a seek with a LIMIT: on SQLite one correlated IN per cell; where
  // that runs once per job and cell (PostgreSQL before 17: over four minutes for 77 cells and
  // 100 000 jobs), uncorrelated pieces written out, as the Overview's week does, a hundred cells at
  // a time (SQLite's limit on a compound SELECT is 500).
  const firstsOf = `SELECT k.id FROM jobs k ${laneIndex}
    WHERE k.assignee = ? AND k.archived_dt IS NULL AND k.scheduled_start_dt IS NOT NULL AND k.status <> 'cancelled'
      AND k.scheduled_start_dt >= ? AND k.scheduled_start_dt < ? AND (k.scheduled_start_dt >= ? OR k.scheduled_end_dt > ?)
    ORDER BY k.scheduled_start_dt, k.id LIMIT ?`;
  const rows: (ScheduleJobRow & { day_index: number })[] = [];
  // Only the columns the schedule shows: each value read out of SQLite WASM costs about 2 µs.
  if (!db.dialect.correlatedInPerRow) {
    rows.push(
      ...(await db.all<ScheduleJobRow & { day_index: number }>(
        `WITH cell(lane, d, lo, hi) AS (VALUES ${values(busyCells.length)})
         SELECT ${scheduleColumns}, cell.d AS day_index
         FROM cell JOIN jobs j ON j.id IN (SELECT k.id FROM jobs k ${laneIndex} WHERE ${inCell} ORDER BY k.scheduled_start_dt, k.id LIMIT ?)
           JOIN customers c ON c.id = j.customer_id`,
        [...busyCells.flat(), from, from, perCell],
      )),
    );
  }
  for (let at = 0; db.dialect.correlatedInPerRow && at < busyCells.length; at += 100) {
    const chunk = busyCells.slice(at, at + 100);
    rows.push(
      ...(await db.all<ScheduleJobRow & { day_index: number }>(
        `SELECT ${scheduleColumns}, f.d AS day_index
         FROM (${chunk.map((cell, i) => `SELECT ${Number(cell[1])} AS d, id FROM (${firstsOf}) AS s${i}`).join(' UNION ALL ')}) AS f
           JOIN jobs j ON j.id = f.id JOIN customers c ON c.id = j.customer_id`,
        chunk.flatMap(([lane, , lo, hi]) => [lane as string, lo as number, hi as number, from, from, perCell]),
      )),
    );
  }
  rows.sort((a, b) => Number(a.scheduled_start_dt) - Number(b.scheduled_start_dt) || Number(a.id) - Number(b.id));
  return {
    rows: rows.slice(0, max).map((row) => {
      const day = Number(row.day_index);
      return { job: toScheduleJob(row), day, cellTotal: total.get(`${row.assignee}\u0000${day}`) ?? 0 };
    }),
    truncated: rows.length > max,
  };
}

/**
 * Everyone a job not archived is assigned to (not the empty name), in code-point order, at most
 * `max`: a loose index scan of migration 17's jobs_assignee_idx, one seek per name, so the work
 * grows with the team, not with the jobs. Both dialects run it as it is.
 */
export async function listAssignees(db: SqlClient, max: number): Promise<string[]> {
  const rows = await db.all<{ name: string }>(
    `WITH RECURSIVE a(name, n) AS (
       SELECT (SELECT min(assignee) FROM jobs WHERE archived_dt IS NULL AND assignee > ''), 1
       UNION ALL
       SELECT (SELECT min(assignee) FROM jobs WHERE archived_dt IS NULL AND assignee > a.name), n + 1 FROM a WHERE a.name IS NOT NULL AND n < ?
     )
     SELECT name FROM a WHERE name IS NOT NULL`,
    [max],
  );
  // PostgreSQL compares text by its collation: the same names, put in one order here.
  return rows.map((r) => r.name).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
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
  } else {
    rows = await db.dialect.jobSearch.countsByStatus(db, { ...sql, match: sql.match });
  }
  for (const row of rows) {
    counts[row.status] = row.n;
    counts.all += row.n;
  }
  return counts;
}

/**
 * The job, or undefined. `lock`: the job's row stays locked until the write's transaction ends
 * (the dialect's `lockRows`: PostgreSQL's `FOR UPDATE`), so that two writers who read it first
 * cannot both act on what they read; SQLite runs one write at a time anyway.
 */
export async function findJob(db: SqlClient, id: number, { lock = false }: { lock?: boolean } = {}): Promise<Job | undefined> {
  const forUpdate = lock ? db.dialect.lockRows('j') : '';
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
  const id = await newId(db, 'jobs');
  const inserted = await db.get<{ id: number }>(
    `INSERT INTO jobs (${id.column}customer_id, title, description, service_address, status, assignee, scheduled_start_dt,
       scheduled_end_dt, price_cents, created_dt, modified_dt, ${fields.status}_dt)
     VALUES (${id.mark}?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [...id.params, ...fieldValues(fields, customerId), now, now, now],
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
  // Its invoices stay (the business's records), billing one job fewer.
  await db.run('UPDATE invoices SET job_count = job_count - 1 WHERE id IN (SELECT invoice_id FROM invoice_jobs WHERE job_id = ?)', [id]);
  await db.run('DELETE FROM jobs WHERE id = ?', [id]);
}
