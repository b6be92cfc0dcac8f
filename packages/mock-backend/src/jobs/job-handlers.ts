import {
  canMoveJob,
  initialJobStatuses,
  jobInputSchema,
  jobRoutes,
  jobScheduleSchema,
  jobStatusLabels,
  jobTransitions,
  limits,
  listParamsRangeSchema,
  type Job,
  type JobFields,
  type JobListParams,
} from '@otto/api-contract';
import type { Database } from '@otto/sqlite-store';
import { ApiError, fieldError, toApiIssues } from '../runtime/api-error';
import { defineHandler } from '../runtime/handler';
import { parseId } from '../runtime/ids';
import { checkPrecondition } from '../runtime/precondition';
import { countJobs, customerExists, findJob, insertJob, listJobs, updateJob, type JobFilter } from './job-repository';

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
  return rowid;
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
  if (!canMoveJob(job.status, fields.status)) {
    const allowed = jobTransitions[job.status];
    const names = allowed.map((s) => jobStatusLabels[s]).join(', ');
    throw new ApiError(
      409,
      'CONFLICT',
      `A job that is ${jobStatusLabels[job.status].toLowerCase()} cannot move to ${jobStatusLabels[fields.status].toLowerCase()}. ` +
        (allowed.length ? `It can move to: ${names}.` : 'It is final.'),
      undefined,
      { allowed },
    );
  }
  const customerId = fields.customer_id === job.customer_id ? Number(job.customer_id) : requireCustomer(db, fields.customer_id);
  checkSchedule(fields);
  return updateJob(db, Number(job.id), fields, customerId, fields.status !== job.status, now);
}

const list = defineHandler(jobRoutes.list, ({ db, filter }) => {
  const { limit = limits.defaultPageSize, offset = 0 } = filter;
  const page = listJobs(db, toFilter(filter), { limit, offset });
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

/** The handlers of every job route of the contract. */
export const jobHandlers = [list, counts, get, create, update, patch];
