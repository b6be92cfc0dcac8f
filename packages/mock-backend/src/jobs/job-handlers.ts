import {
  canMoveJob,
  defaultSortOrders,
  formatDay,
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
  parseCalendarDate,
  startOfZonedDay,
  type ChangeEvent,
  type Job,
  type JobFields,
  type JobListParams,
  type JobStatus,
} from '@otto/api-contract';
import type { SqlClient } from '../sql/types';
import { ApiError, fieldError, toApiIssues } from '../runtime/api-error';
import { defineHandler } from '../runtime/handler';
import { parseId } from '../runtime/ids';
import { checkPrecondition } from '../runtime/precondition';
import {
  countJobs,
  customerArchived,
  deleteJob,
  findJob,
  insertJob,
  listAssignees,
  listArchivedJobs,
  listJobs,
  listSchedule,
  setJobArchived,
  updateJob,
  type JobFilter,
} from './job-repository';
import { findJobMove, forgetJobMove, moveJob, rememberMoveEffects, revertJobMove } from './job-moves';
import { followInvoice, jobWriteChanges, undoMoveEffects } from '../invoices/invoice-handlers';
import { liveInvoiceOfJob } from '../invoices/invoice-repository';

function notFound(id: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', `Job ${JSON.stringify(id)} was not found. It may never have existed.`);
}

/** The job; `lock` for a write that acts on what it read (see findJob). */
async function requireJob(db: SqlClient, id: string, ifMatch?: number[] | '*', lock = false): Promise<Job> {
  const rowid = parseId(id);
  const job = rowid === null ? undefined : await findJob(db, rowid, { lock });
  if (!job) throw notFound(id);
  checkPrecondition(ifMatch, job.modified_dt, `Job ${JSON.stringify(id)}`);
  return job;
}

async function requireCustomer(db: SqlClient, id: string): Promise<number> {
  const rowid = parseId(id);
  const archived = rowid === null ? undefined : await customerArchived(db, rowid);
  if (rowid === null || archived === undefined) {
    throw fieldError('customer_id', 'That customer does not exist. Choose one from the list.');
  }
  if (archived) {
    throw fieldError('customer_id', 'That customer is archived. Restore them first, or choose another customer.');
  }
  return rowid;
}

/** Archived jobs are kept as they were: restore one to change it. */
function requireActive(job: Job): void {
  if (job.archived_dt != null) {
    throw new ApiError(409, 'CONFLICT', `Job ${JSON.stringify(job.id)} is archived. Restore it to change it.`);
  }
}

/** A new version for a write: the write's stamp (decision 0120), never one the job had. */
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
    ...(filter.openBefore !== undefined ? { openBefore: filter.openBefore } : {}),
    ...(filter.unscheduled === true ? { unscheduled: true } : {}),
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

/**
 * Saves new fields over a job, enforcing the lifecycle; its invoice follows a status change
 * (decision 0161). Answers the job and the change-feed events.
 */
async function save(db: SqlClient, job: Job, fields: JobFields, now: number): Promise<{ data: Job; changes: ChangeEvent[] }> {
  requireActive(job);
  if (!canMoveJob(job.status, fields.status)) throw forbiddenMove(job, fields.status);
  // An edit ends the chance to undo the last one-click move: the job is no longer what it left.
  await forgetJobMove(db, Number(job.id));
  const customerId = fields.customer_id === job.customer_id ? Number(job.customer_id) : await requireCustomer(db, fields.customer_id);
  if (customerId !== Number(job.customer_id) && (await liveInvoiceOfJob(db, Number(job.id))) !== undefined) {
    throw fieldError('customer_id', 'This job is on an invoice to its customer. Void the invoice before moving the job to another customer.');
  }
  checkSchedule(fields);
  const saved = await updateJob(db, Number(job.id), fields, customerId, fields.status !== job.status, now);
  const effects = await followInvoice(db, job, saved, now);
  return { data: (await findJob(db, Number(job.id))) as Job, changes: jobWriteChanges(job.id, effects) };
}

const list = defineHandler(jobRoutes.list, async ({ sql, filter }) => {
  const { limit = limits.defaultPageSize, offset = 0 } = filter;
  const sort = filter.sortBy ? { by: filter.sortBy, order: filter.sortOrder ?? defaultSortOrders[filter.sortBy] } : undefined;
  const jobFilter = toFilter(filter);
  const page =
    filter.archived === true ? await listArchivedJobs(sql, jobFilter.customerId, { limit, offset }) : await listJobs(sql, jobFilter, { limit, offset }, sort);
  return { data: page.rows, totalCount: page.total };
});

const counts = defineHandler(jobRoutes.counts, async ({ sql, filter }) => ({ data: await countJobs(sql, toFilter(filter)) }));

const schedule = defineHandler(jobRoutes.schedule, async ({ sql, filter }) => {
  // filterJson passed its schema (or the router answered 400); only an absent one reaches here empty.
  if (filter.tz === undefined || filter.start === undefined || filter.days === undefined) {
    throw new ApiError(400, 'INVALID_PARAMS', 'Pass the days as filterJson {"tz": "Europe/Berlin", "start": "2026-11-23", "days": 7}.', [
      { path: 'start', message: 'Pass tz, start and days.' },
    ]);
  }
  const { year, month, day } = parseCalendarDate(filter.start);
  const bounds = Array.from({ length: filter.days + 1 }, (_, i) => startOfZonedDay(year, month, day + i, filter.tz as string));
  const days = bounds.slice(0, -1).map((start, i) => ({ date: formatDay(year, month, day + i), start_dt: start, end_dt: bounds[i + 1] as number }));
  const perCell = filter.perCell ?? limits.defaultSchedulePerCell;
  // One name more than the lanes shown: when there is one, its jobs are left out, and `truncated` says so.
  const named = await listAssignees(sql, limits.maxScheduleAssignees + 1);
  const assignees = named.slice(0, limits.maxScheduleAssignees);
  const listed = await listSchedule(sql, ['', ...assignees], bounds, perCell, limits.maxScheduleJobs);
  const { rows } = listed;
  const truncated = listed.truncated || named.length > assignees.length;
  const more = new Map<string, { assignee: string; date: string; count: number }>();
  for (const row of rows) {
    const date = days[row.day]?.date ?? '';
    if (row.cellTotal > perCell) more.set(`${row.job.assignee}\u0000${date}`, { assignee: row.job.assignee, date, count: row.cellTotal - perCell });
  }
  return {
    data: { days, jobs: rows.map((r) => r.job), more: [...more.values()], truncated, assignees },
  };
});

const get = defineHandler(jobRoutes.get, async ({ sql, params }) => ({ data: await requireJob(sql, params.id) }));

const create = defineHandler(jobRoutes.create, async ({ sql, body, now }) => {
  const customerId = await requireCustomer(sql, body.customer_id);
  if (!(initialJobStatuses as readonly string[]).includes(body.status)) {
    throw fieldError('status', 'A new job starts as a quote or as scheduled.');
  }
  checkSchedule(body);
  return { data: await insertJob(sql, body, customerId, now()) };
});

const update = defineHandler(jobRoutes.update, async ({ sql, params, body, now, ifMatch }) => save(sql, await requireJob(sql, params.id, ifMatch, true), body, now()));

const patch = defineHandler(jobRoutes.patch, async ({ sql, params, body, now, ifMatch }) => {
  const job = await requireJob(sql, params.id, ifMatch, true);
  const merged = jobInputSchema.safeParse({ ...job, ...body });
  if (!merged.success) {
    throw new ApiError(400, 'VALIDATION_FAILED', 'Some fields need attention.', toApiIssues(merged.error.issues));
  }
  return save(sql, job, merged.data, now());
});

const move = defineHandler(jobRoutes.move, async ({ sql, params, body, now, ifMatch }) => {
  const job = await requireJob(sql, params.id, ifMatch, true);
  requireActive(job);
  if (body.status === job.status || !canMoveJob(job.status, body.status)) throw forbiddenMove(job, body.status);
  const start = body.scheduled_start_dt !== undefined ? body.scheduled_start_dt : job.scheduled_start_dt;
  const end = body.scheduled_end_dt !== undefined ? body.scheduled_end_dt : job.scheduled_end_dt;
  const schedule = { scheduled_start_dt: start, scheduled_end_dt: end !== null && start !== null && end < start ? null : end };
  if (body.status === 'scheduled' && schedule.scheduled_start_dt === null) {
    throw fieldError('scheduled_start_dt', 'A scheduled job needs a start time.');
  }
  if (schedule.scheduled_end_dt !== null && schedule.scheduled_start_dt === null) schedule.scheduled_end_dt = null;
  const version = nextVersion(job, now());
  const moved = await moveJob(sql, job, body.status, schedule, version);
  const effects = await followInvoice(sql, job, moved, version);
  await rememberMoveEffects(sql, Number(job.id), effects);
  return { data: (await findJob(sql, Number(job.id))) as Job, changes: jobWriteChanges(job.id, effects) };
});

const revert = defineHandler(jobRoutes.revert, async ({ sql, params, body, now, ifMatch }) => {
  const job = await requireJob(sql, params.id, ifMatch, true);
  const move = await findJobMove(sql, Number(job.id));
  const nothing = (why: string) =>
    new ApiError(409, 'CONFLICT', `There is no status move of job ${JSON.stringify(job.id)} to undo: ${why}`);
  if (!move || move.version !== body.version) throw nothing('that version names no one-click move of this job.');
  if (job.modified_dt !== move.version || job.status !== move.to_status || job.archived_dt != null) {
    throw nothing('the job changed since that move. Load it again.');
  }
  if (now() - move.moved_dt > jobMoveRevertWindowMs) throw nothing('the move is more than 10 minutes old.');
  if (!(jobStatuses as readonly string[]).includes(move.from_status)) throw nothing('the move is not readable.');
  const version = nextVersion(job, now());
  const effects = await undoMoveEffects(sql, { to_status: move.to_status, invoice_id: move.invoice_id ?? null, payment_id: move.payment_id ?? null }, version);
  return { data: await revertJobMove(sql, move, version), changes: jobWriteChanges(job.id, effects) };
});

const archive = defineHandler(jobRoutes.archive, async ({ sql, params, now, ifMatch }) => {
  const job = await requireJob(sql, params.id, ifMatch, true);
  if (job.archived_dt != null) return { data: job, changes: [] };
  return { data: await setJobArchived(sql, Number(job.id), true, nextVersion(job, now())) };
});

const restore = defineHandler(jobRoutes.restore, async ({ sql, params, now, ifMatch }) => {
  const job = await requireJob(sql, params.id, ifMatch, true);
  if (job.archived_dt == null) return { data: job, changes: [] };
  return { data: await setJobArchived(sql, Number(job.id), false, nextVersion(job, now())) };
});

const remove = defineHandler(jobRoutes.remove, async ({ sql, params, ifMatch }) => {
  const job = await requireJob(sql, params.id, ifMatch, true);
  if (job.archived_dt == null) {
    throw new ApiError(409, 'CONFLICT', `Job ${JSON.stringify(job.id)} is not archived. Archive it first; only archived jobs can be deleted for good.`);
  }
  await deleteJob(sql, Number(job.id));
  return { data: job };
});

/** The handlers of every job route of the contract. */
export const jobHandlers = [list, counts, schedule, get, create, update, patch, move, revert, archive, restore, remove];
