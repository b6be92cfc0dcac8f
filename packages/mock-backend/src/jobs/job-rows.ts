import { jobStatuses, type Job, type JobSortField, type JobStatus, type SortOrder } from '@otto/api-contract';
import type { SqlValue } from '@otto/sqlite-store';
import type { SqlClient } from '../sql/types';

type StatusDateColumns = { [S in JobStatus as `${S}_dt`]: number | null };

/** A jobs row joined with its customer's name, as the repositories read it. */
export interface JobRow extends StatusDateColumns {
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
/** The columns of a job, over `jobs j JOIN customers c`. */
export const jobColumns = `j.id, j.customer_id, c.full_name AS customer_name, j.title, j.description, j.service_address,
  j.status, j.assignee, j.scheduled_start_dt, j.scheduled_end_dt, j.price_cents, j.created_dt, j.modified_dt, j.archived_dt, ${statusColumns}`;

export function toJob(row: JobRow): Job {
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
  /** Scheduled or in progress, with a start before this instant (epoch ms). */
  openBefore?: number;
  /** Still to be put on the calendar: no scheduled start, and a quote, scheduled or in progress. */
  unscheduled?: boolean;
}

/** A filter as SQL over `jobs j`: conditions (search aside) with their parameters, and the search's match. */
export interface JobFilterSql {
  where: string;
  params: SqlValue[];
  /** The dialect's match of the search text (see `JobSearch.match`); null without search text. */
  match: string | null;
}

/** True when the filter narrows by more than search text and status, so no counter or status-keyed index answers it. */
export function narrowed(filter: JobFilter): boolean {
  return (
    filter.customerId !== undefined ||
    filter.paidFrom !== undefined ||
    filter.paidBefore !== undefined ||
    filter.openBefore !== undefined ||
    filter.unscheduled === true
  );
}

/**
 * Archived jobs are out of every list and count: the full-text indexes and the counters leave them
 * out (migration 6), and reads of the jobs table itself say so, which also lets SQLite use the
 * partial list indexes.
 */
export const active = 'j.archived_dt IS NULL';

/**
 * A job still to be put on the calendar, written exactly as migration 17's partial index
 * jobs_unscheduled_idx says it, so that the index serves the list and its count.
 */
export const unscheduledSql = "j.scheduled_start_dt IS NULL AND j.status IN ('quote', 'scheduled', 'in_progress')";

/** `WHERE` and the non-empty conditions joined by AND; nothing when there are none. */
export const and = (...parts: string[]): string => {
  const kept = parts.filter(Boolean);
  return kept.length ? `WHERE ${kept.join(' AND ')}` : '';
};

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
export function jobOrder(db: SqlClient, sort: JobSort): string {
  const dir = sort.order === 'asc' ? 'ASC' : 'DESC';
  switch (sort.by) {
    case 'title':
      return `${db.dialect.nocase('j.title')} ${dir}, j.id ${dir}`;
    case 'price_cents':
      return `j.price_cents ${dir}, j.id ${dir}`;
    case 'scheduled_start_dt':
      if (dir === 'ASC') return '(j.scheduled_start_dt IS NULL), j.scheduled_start_dt, j.id';
      return `${db.dialect.descNullsLast('j.scheduled_start_dt')}, j.id DESC`;
    case 'status':
      return dir === 'ASC' ? `${statusRankSql('j.')}, j.modified_dt DESC, j.id DESC` : `${statusRankSql('j.')} DESC, j.modified_dt, j.id`;
    case 'modified_dt':
      return `j.modified_dt ${dir}, j.id ${dir}`;
  }
}
