// The job calls of the route table.
import { z } from 'zod';
import {
  jobCountsSchema,
  jobInputSchema,
  jobListParamsSchema,
  jobMoveSchema,
  jobPatchSchema,
  jobRevertSchema,
  jobSchema,
} from './job';
import { importResultSchema, jobImportBodySchema } from './import';
import { limits } from './limits';
import { scheduleParamsSchema, scheduleSchema } from './schedule';
import { idParams, type RouteDefinition } from './route-definition';

/**
 * Every job call. Bad input is a 400 with the field issues, an unknown customer a 400, a missing job
 * a 404, and a status move the lifecycle forbids a 409 naming the allowed next statuses.
 * @example
 * const { method, path } = jobRoutes.counts; // 'GET', '/jobs/counts'
 */
export const jobRoutes = {
  list: {
    method: 'GET',
    path: '/jobs',
    summary: 'List jobs, filtered by search text, status and customer; newest modified first, or best matches; sortBy orders by title, price, scheduled date, status or modified instead.',
    filterJson: jobListParamsSchema,
    invalidFilter: 'error',
    response: z.array(jobSchema),
    totalCount: true,
  },
  counts: {
    method: 'GET',
    path: '/jobs/counts',
    summary: 'How many jobs match the search text and customer, per status.',
    filterJson: jobListParamsSchema,
    invalidFilter: 'error',
    response: jobCountsSchema,
  },
  schedule: {
    method: 'GET',
    path: '/jobs/schedule',
    summary: `The jobs on the calendar over days days from start in the time zone tz (at most ${limits.maxScheduleDays}): a scheduled start, not cancelled, a start or end within them (a job that began up to 14 days earlier and runs into them included); at most perCell (default ${limits.defaultSchedulePerCell}) per person per day, earliest first, with how many more each person's day holds, and everyone jobs are assigned to.`,
    filterJson: scheduleParamsSchema,
    invalidFilter: 'error',
    errors: { 400: `filterJson is missing, or has no known time zone tz, no valid start day, or days outside 1 to ${limits.maxScheduleDays}.` },
    response: scheduleSchema,
  },
  import: {
    method: 'POST',
    path: '/jobs/import',
    summary:
      'Import many jobs in one transaction (all or nothing). Each row names its customer by email, else by exact full name; a row finding none or several, or breaking a field rule, is skipped and named. Duplicates (same customer, title and scheduled start as a job or an earlier row) follow `duplicates`. `dryRun` answers the same without saving.',
    body: jobImportBodySchema,
    errors: {
      400: `More than ${limits.maxImportRows} rows, or a body that is not a list of rows.`,
      413: `A body larger than ${limits.maxImportBodyBytes} bytes.`,
    },
    response: importResultSchema,
    maxBodyBytes: limits.maxImportBodyBytes,
    longRunning: true,
  },
  get: {
    method: 'GET',
    path: '/jobs/:id',
    summary: 'One job by id.',
    params: idParams,
    response: jobSchema,
    etag: true,
  },
  create: {
    method: 'POST',
    path: '/jobs',
    summary: 'Create a job for an existing customer.',
    body: jobInputSchema,
    errors: { 400: 'An unknown customer is an issue on customer_id.' },
    response: jobSchema,
    change: { entity: 'job', kind: 'created' },
  },
  update: {
    method: 'PUT',
    path: '/jobs/:id',
    summary: 'Replace every field of a job; a status change must be an allowed move.',
    params: idParams,
    errors: {
      400: 'An unknown customer is an issue on customer_id; moving into scheduled without a start time, one on scheduled_start_dt.',
      409: 'The lifecycle forbids this status move; the message names the allowed next statuses and `allowed` lists them.',
    },
    body: jobInputSchema,
    response: jobSchema,
    change: { entity: 'job', kind: 'updated' },
    etag: true,
  },
  patch: {
    method: 'PATCH',
    path: '/jobs/:id',
    summary: 'Change some fields of a job; a status change must be an allowed move.',
    params: idParams,
    errors: {
      400: 'An unknown customer is an issue on customer_id; moving into scheduled without a start time, one on scheduled_start_dt.',
      409: 'The lifecycle forbids this status move; the message names the allowed next statuses and `allowed` lists them.',
    },
    body: jobPatchSchema,
    response: jobSchema,
    change: { entity: 'job', kind: 'updated' },
    etag: true,
  },
  move: {
    method: 'POST',
    path: '/jobs/:id/move',
    summary:
      'A one-click status move: only the status (and the start time when scheduling). The move is remembered so that exactly it can be undone with revert.',
    params: idParams,
    errors: {
      400: 'Moving into scheduled without a start time (the job has none) is an issue on scheduled_start_dt.',
      409: 'The lifecycle forbids this move (the message names the allowed next statuses and `allowed` lists them), or the job is archived.',
    },
    body: jobMoveSchema,
    response: jobSchema,
    change: { entity: 'job', kind: 'updated' },
    etag: true,
  },
  revert: {
    method: 'POST',
    path: '/jobs/:id/revert',
    summary:
      "Undo the job's last one-click move, named by the version (modified_dt) it produced: the status, its date and the schedule go back to what they were, paid included. Only while the job is still at that version and within 10 minutes.",
    params: idParams,
    errors: {
      409: 'There is no such move to undo: the job changed since (another move, an edit), the move is older than 10 minutes, or the version names no move.',
    },
    body: jobRevertSchema,
    response: jobSchema,
    change: { entity: 'job', kind: 'updated' },
    etag: true,
  },
  archive: {
    method: 'POST',
    path: '/jobs/:id/archive',
    summary: 'Archive a job: out of lists, searches and counts until restored. Archiving an archived job changes nothing.',
    params: idParams,
    response: jobSchema,
    change: { entity: 'job', kind: 'updated' },
    etag: true,
  },
  restore: {
    method: 'POST',
    path: '/jobs/:id/restore',
    summary: 'Restore an archived job (the Undo of an archive).',
    params: idParams,
    response: jobSchema,
    change: { entity: 'job', kind: 'updated' },
    etag: true,
  },
  remove: {
    method: 'DELETE',
    path: '/jobs/:id',
    summary: 'Delete an archived job for good; answers the job as it was.',
    params: idParams,
    errors: { 409: 'The job is not archived: archive it first.' },
    response: jobSchema,
    change: { entity: 'job', kind: 'deleted' },
    etag: true,
  },
} as const satisfies Record<string, RouteDefinition>;
