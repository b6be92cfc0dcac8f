import {
  canMoveJob,
  defaultSortOrders,
  initialJobStatuses,
  jobInputSchema,
  jobMoveRevertWindowMs,
  jobRoutes,
  jobScheduleSchema,
  jobStatusLabels,
  jobStatuses,
  jobTransitions,
  limits,
  listParamsRangeSchema,
  type Job,
  type JobFields,
  type JobListParams,
  type JobStatus,
} from '@otto/api-contract';
import type { Database } from '@otto/sqlite-store';
import { ApiError, fieldError, toApiIssues } from '../runtime/api-error';
import { defineHandler } from '../runtime/handler';
import { parseId } from '../runtime/ids';
import { checkPrecondition } from '../runtime/precondition';
import {
  countJobs,
  customerExists,
  deleteJob,
  findJob,
  findJobMove,
  insertJob,
  listArchivedJobs,
  listJobs,
  moveJob,
  revertJobMove,
  setJobArchived,
  updateJob,
  type JobFilter,
} from './job-repository';

function notFound(id: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', `Job ${JSON.stringify(id)} was not found. It may never have existed.`);
}

function requireJob(db: Database, id: string, ifMatch?: number[] | '*'): Job {
  const rowid = parseId(id);
  const job = rowid === null ? undefined : findJob(db, rowid);
  if (!job) throw notFound(id);
  checkPrecondition(ifMatch, job.modified_dt, `Job ${JSON.stringify(id)}`);
  return job;
}

function requireCustomer(db: Database, id: string): number {
  const rowid = parseId(id);
  if (rowid === null || !customerExists(db, rowid)) {
    throw fieldError('customer_id', 'That customer does not exist. Choose one from the list.');
  }
  if (isCustomerArchived(db, rowid)) {
    throw fieldError('customer_id', 'That customer is archived. Restore them first, or choose another customer.');
  }
  return rowid;
}

function isCustomerArchived(db: Database, id: number): boolean {
  return db.get('SELECT 1 AS yes FROM customers WHERE id = ? AND archived_dt IS NOT NULL', [id]) !== undefined;
}

/** Archived jobs are kept as they were: restore one to change it. */
function requireActive(job: Job): void {
  if (job.archived_dt != null) {
    throw new ApiError(409, 'CONFLICT', `Job ${JSON.stringify(job.id)} is archived. Restore it to change it.`);
  }
}

/** A new version for a write: now, or one more than the current one when the clock has not moved. */
function nextVersion(job: Job, now: number): number {
  return Math.max(now, job.modified_dt + 1);
}

function forbiddenMove(job: Job, to: JobStatus): ApiError {
  const allowed = jobTransitions[job.status];
  const names = allowed.map((s) => jobStatusLabels[s]).join(', ');
  return new ApiError(
    409,
    'CONFLICT',
    `A job that is ${jobStatusLabels[job.status].toLowerCase()} cannot move to ${jobStatusLabels[to].toLowerCase()}. ` +
      (allowed.length ? `It can move to: ${names}.` : 'It is final.'),
    undefined,
    { allowed },
  );
}

function toFilter(filter: Partial<JobListParams>): JobFilter {
  const range = listParamsRangeSchema.safeParse(filter);
  if (!range.success) {
    throw new ApiError(400, 'INVALID_PARAMS', 'The list parameters are out of range.', toApiIssues(range.error.issues));
  }
  // A customerId that cannot name a customer matches no job.
  const customerId = filter.customerId === undefined ? undefined : (parseId(filter.customerId) ?? -1);
  return {
    queryText: filter.queryText ?? '',
    ...(filter.status ? { status: filter.status } : {}),
    ...(customerId !== undefined ? { customerId } : {}),
    ...(filter.paidFrom !== undefined ? { paidFrom: filter.paidFrom } : {}),
    ...(filter.paidBefore !== undefined ? { paidBefore: filter.paidBefore } : {}),
  };
}

function checkSchedule(fields: JobFields): void {
  const schedule = jobScheduleSchema.safeParse(fields);
  if (!schedule.success) {
    throw new ApiError(400, 'VALIDATION_FAILED', 'Some fields need attention.', toApiIssues(schedule.error.issues));
  }
  if (fields.status === 'scheduled' && fields.scheduled_start_dt === null) {
    throw fieldError('scheduled_start_dt', 'A scheduled job needs a start time.');
  }
}

/** Saves new fields over a job, enforcing the lifecycle. */
function save(db: Database, job: Job, fields: JobFields, now: number): Job {
  requireActive(job);
  if (!canMoveJob(job.status, fields.status)) throw forbiddenMove(job, fields.status);
  // An edit ends the chance to undo the last one-click move: the job is no longer what it left.
  db.run('DELETE FROM job_moves WHERE job_id = ?', [Number(job.id)]);
  const customerId = fields.customer_id === job.customer_id ? Number(job.customer_id) : requireCustomer(db, fields.customer_id);
  checkSchedule(fields);
  return updateJob(db, Number(job.id), fields, customerId, fields.status !== job.status, now);
}

const list = defineHandler(jobRoutes.list, ({ db, filter }) => {
  const { limit = limits.defaultPageSize, offset = 0 } = filter;
  const sort = filter.sortBy ? { by: filter.sortBy, order: filter.sortOrder ?? defaultSortOrders[filter.sortBy] } : undefined;
  const jobFilter = toFilter(filter);
  const page =
    filter.archived === true ? listArchivedJobs(db, jobFilter.customerId, { limit, offset }) : listJobs(db, jobFilter, { limit, offset }, sort);
  return { data: page.rows, totalCount: page.total };
});

const counts = defineHandler(jobRoutes.counts, ({ db, filter }) => ({ data: countJobs(db, toFilter(filter)) }));

const get = defineHandler(jobRoutes.get, ({ db, params }) => ({ data: requireJob(db, params.id) }));

const create = defineHandler(jobRoutes.create, ({ db, body, now }) => {
  const customerId = requireCustomer(db, body.customer_id);
  if (!(initialJobStatuses as readonly string[]).includes(body.status)) {
    throw fieldError('status', 'A new job starts as a quote or as scheduled.');
  }
  checkSchedule(body);
  return { data: insertJob(db, body, customerId, now()) };
});

const update = defineHandler(jobRoutes.update, ({ db, params, body, now, ifMatch }) => ({
  data: save(db, requireJob(db, params.id, ifMatch), body, now()),
}));

const patch = defineHandler(jobRoutes.patch, ({ db, params, body, now, ifMatch }) => {
  const job = requireJob(db, params.id, ifMatch);
  const merged = jobInputSchema.safeParse({ ...job, ...body });
  if (!merged.success) {
    throw new ApiError(400, 'VALIDATION_FAILED', 'Some fields need attention.', toApiIssues(merged.error.issues));
  }
  return { data: save(db, job, merged.data, now()) };
});

const move = defineHandler(jobRoutes.move, ({ db, params, body, now, ifMatch }) => {
  const job = requireJob(db, params.id, ifMatch);
  requireActive(job);
  if (body.status === job.status || !canMoveJob(job.status, body.status)) throw forbiddenMove(job, body.status);
  const start = body.scheduled_start_dt !== undefined ? body.scheduled_start_dt : job.scheduled_start_dt;
  const end = body.scheduled_end_dt !== undefined ? body.scheduled_end_dt : job.scheduled_end_dt;
  const schedule = { scheduled_start_dt: start, scheduled_end_dt: end !== null && start !== null && end < start ? null : end };
  if (body.status === 'scheduled' && schedule.scheduled_start_dt === null) {
    throw fieldError('scheduled_start_dt', 'A scheduled job needs a start time.');
  }
  if (schedule.scheduled_end_dt !== null && schedule.scheduled_start_dt === null) schedule.scheduled_end_dt = null;
  return { data: moveJob(db, job, body.status, schedule, nextVersion(job, now())) };
});

const revert = defineHandler(jobRoutes.revert, ({ db, params, body, now, ifMatch }) => {
  const job = requireJob(db, params.id, ifMatch);
  const move = findJobMove(db, Number(job.id));
  const nothing = (why: string) =>
    new ApiError(409, 'CONFLICT', `There is no status move of job ${JSON.stringify(job.id)} to undo: ${why}`);
  if (!move || move.version !== body.version) throw nothing('that version names no one-click move of this job.');
  if (job.modified_dt !== move.version || job.status !== move.to_status || job.archived_dt != null) {
    throw nothing('the job changed since that move. Load it again.');
  }
  if (now() - move.moved_dt > jobMoveRevertWindowMs) throw nothing('the move is more than 10 minutes old.');
  if (!(jobStatuses as readonly string[]).includes(move.from_status)) throw nothing('the move is not readable.');
  return { data: revertJobMove(db, move, nextVersion(job, now())) };
});

const archive = defineHandler(jobRoutes.archive, ({ db, params, now, ifMatch }) => {
  const job = requireJob(db, params.id, ifMatch);
  if (job.archived_dt != null) return { data: job, changes: [] };
  return { data: setJobArchived(db, Number(job.id), true, nextVersion(job, now())) };
});

const restore = defineHandler(jobRoutes.restore, ({ db, params, now, ifMatch }) => {
  const job = requireJob(db, params.id, ifMatch);
  if (job.archived_dt == null) return { data: job, changes: [] };
  return { data: setJobArchived(db, Number(job.id), false, nextVersion(job, now())) };
});

const remove = defineHandler(jobRoutes.remove, ({ db, params, ifMatch }) => {
  const job = requireJob(db, params.id, ifMatch);
  if (job.archived_dt == null) {
    throw new ApiError(409, 'CONFLICT', `Job ${JSON.stringify(job.id)} is not archived. Archive it first; only archived jobs can be deleted for good.`);
  }
  deleteJob(db, Number(job.id));
  return { data: job };
});

/** The handlers of every job route of the contract. */
export const jobHandlers = [list, counts, get, create, update, patch, move, revert, archive, restore, remove];
