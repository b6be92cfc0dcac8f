import { z } from 'zod';
import { limits } from './limits';
import { hasNoNul, noNulMessage } from './customer';
import { jobStatusSchema, jobStatuses, type JobStatus } from './job-status';

export {
  canMoveJob,
  initialJobStatuses,
  jobStatusLabels,
  jobStatusSchema,
  jobStatuses,
  jobTransitions,
  type JobStatus,
} from './job-status';

const statusDatesSchema = z.object(
  Object.fromEntries(jobStatuses.map((s) => [s, z.number().int().nullable()])) as Record<
    JobStatus,
    z.ZodNullable<z.ZodNumber>
  >,
);

/**
 * A job as every client sees it. Ids are strings, times epoch milliseconds, money integer cents.
 * `status_dates` holds when the job last reached each status (null: never).
 * @example
 * const job = jobSchema.parse(await res.json());
 */
export const jobSchema = z.object({
  id: z.string(),
  customer_id: z.string(),
  customer_name: z.string(),
  title: z.string(),
  description: z.string(),
  service_address: z.string(),
  status: jobStatusSchema,
  assignee: z.string(),
  scheduled_start_dt: z.number().int().nullable(),
  scheduled_end_dt: z.number().int().nullable(),
  price_cents: z.number().int(),
  created_dt: z.number().int(),
  modified_dt: z.number().int(),
  status_dates: statusDatesSchema,
  /** When the job was archived (epoch ms), or null; optional as for customers (decision 0091). */
  archived_dt: z.number().int().nullable().optional(),
});
/**
 * A job on the wire.
 * @example
 * const title = (job: Job) => `${job.title} for ${job.customer_name}`;
 */
export type Job = z.infer<typeof jobSchema>;

const text = (max: number, what: string) =>
  z.string(`${what} must be text.`).trim().max(max, `Use at most ${max} characters.`).refine(hasNoNul, noNulMessage);

const epochMs = z
  .number('Enter a date and time.')
  .int('Enter a date and time.')
  .min(0, 'Enter a date after 1970.')
  .max(8_640_000_000_000_000, 'Enter a real date.');

/** The rule and message of each job field a person enters. */
const jobFieldRules = {
  customer_id: z.string('Choose a customer.').regex(/^[1-9]\d{0,15}$/, 'Choose a customer.'),
  title: text(limits.maxJobTitleLength, 'The title').min(1, 'Enter a title.'),
  description: text(limits.maxJobDescriptionLength, 'The description'),
  service_address: text(limits.maxAddressLength, 'The address'),
  status: jobStatusSchema,
  assignee: text(limits.maxAssigneeLength, 'The assignee'),
  scheduled_start_dt: epochMs.nullable(),
  scheduled_end_dt: epochMs.nullable(),
  price_cents: z
    .number('Enter a price.')
    .int('Enter the price in whole cents.')
    .min(0, 'The price cannot be negative.')
    .max(limits.maxPriceCents, 'That price is too large.'),
};

function checkSchedule(value: { scheduled_start_dt?: number | null; scheduled_end_dt?: number | null }, ctx: z.RefinementCtx) {
  const { scheduled_start_dt: start, scheduled_end_dt: end } = value;
  if (end != null && start == null) {
    ctx.addIssue({ code: 'custom', path: ['scheduled_start_dt'], message: 'Enter a start before an end.' });
  }
  if (end != null && start != null && end < start) {
    ctx.addIssue({ code: 'custom', path: ['scheduled_end_dt'], message: 'The end cannot be before the start.' });
  }
}

/**
 * The body of POST /api/jobs, and of PUT, which replaces every field. Only customer_id and title
 * are required; a new job starts as a quote unless it says otherwise.
 * @example
 * jobInputSchema.parse({ customer_id: '7', title: 'Boiler service' });
 */
export const jobInputSchema = z
  .object({
    ...jobFieldRules,
    description: jobFieldRules.description.default(''),
    service_address: jobFieldRules.service_address.default(''),
    status: jobFieldRules.status.default('quote'),
    assignee: jobFieldRules.assignee.default(''),
    scheduled_start_dt: jobFieldRules.scheduled_start_dt.default(null),
    scheduled_end_dt: jobFieldRules.scheduled_end_dt.default(null),
    price_cents: jobFieldRules.price_cents.default(0),
  })
  .superRefine(checkSchedule);
/**
 * What a client sends to create or replace a job; optional fields may be left out.
 * @example
 * const input: JobInput = { customer_id: '7', title: 'Boiler service', price_cents: 12500 };
 */
export type JobInput = z.input<typeof jobInputSchema>;
/**
 * Every field of a job as the backend stores it, defaults filled in.
 * @example
 * const fields: JobFields = jobInputSchema.parse({ customer_id: '7', title: 'Boiler service' });
 */
export type JobFields = z.output<typeof jobInputSchema>;

/**
 * The body of PATCH /api/jobs/{id}: any subset of the fields.
 * @example
 * jobPatchSchema.parse({ status: 'completed' });
 */
export const jobPatchSchema = z.object(jobFieldRules).partial();
/**
 * The body of PATCH /api/jobs/{id}.
 * @example
 * const move: JobPatch = { status: 'scheduled', scheduled_start_dt: Date.parse('2026-12-01T09:00:00Z') };
 */
export type JobPatch = z.input<typeof jobPatchSchema>;

/**
 * Checks the schedule rule on a job after a patch was applied: an end needs a start and is not
 * before it.
 * @example
 * jobScheduleSchema.safeParse({ scheduled_start_dt: 2000, scheduled_end_dt: 1000 }).success; // false
 */
export const jobScheduleSchema = z
  .object({ scheduled_start_dt: z.number().nullable(), scheduled_end_dt: z.number().nullable() })
  .superRefine(checkSchedule);

/**
 * filterJson of GET /api/jobs and GET /api/jobs/counts.
 * @example
 * `/api/jobs?filterJson=${encodeURIComponent(JSON.stringify({ status: 'scheduled', customerId: '7' }))}`
 */
export const jobListParamsSchema = z.object({
  queryText: z.string().optional(),
  status: jobStatusSchema.optional(),
  customerId: z.string().optional(),
  /** Only jobs paid at or after this instant (epoch ms); with `paidBefore`, a month of the Overview's chart. */
  paidFrom: z.number().int().optional(),
  /** Only jobs paid before this instant (epoch ms). */
  paidBefore: z.number().int().optional(),
  /**
   * Only jobs still open (scheduled or in progress) whose scheduled start is before this instant
   * (epoch ms): the Overview's "N jobs from before this week are still open".
   */
  openBefore: z.number().int().optional(),
  offset: z.number().optional(),
  limit: z.number().optional(),
  /**
   * Orders the list by this field instead of the default (best matches first with search text,
   * else most recently modified first). Jobs without a scheduled date come last either way;
   * statuses sort in lifecycle order. Ignored by the counts.
   */
  sortBy: z.enum(['title', 'price_cents', 'scheduled_start_dt', 'status', 'modified_dt']).optional(),
  /** With `sortBy`: `asc` or `desc`; by default `defaultSortOrders[sortBy]`. */
  sortOrder: z.enum(['asc', 'desc']).optional(),
  /**
   * `true`: only jobs still to be put on the calendar: no scheduled start, and a quote, scheduled or
   * in progress (the schedule's "Unscheduled" list).
   */
  unscheduled: z.boolean().optional(),
  /** `true`: the archived jobs instead, most recently archived first (status and queryText do not apply). */
  archived: z.boolean().optional(),
});
/**
 * Fields a job list can be ordered by (`sortBy`).
 * @example
 * jobSortFields.includes('price_cents'); // true
 */
export const jobSortFields = jobListParamsSchema.shape.sortBy.unwrap().options;
/**
 * One of `jobSortFields`.
 * @example
 * const sortBy: JobSortField = 'scheduled_start_dt';
 */
export type JobSortField = (typeof jobSortFields)[number];
/**
 * The filter of the job list and counts.
 * @example
 * const filter: JobListParams = { status: 'scheduled', customerId: '7', limit: 20 };
 */
export type JobListParams = z.infer<typeof jobListParamsSchema>;

/**
 * How many jobs match, per status and in all (GET /api/jobs/counts).
 * @example
 * const counts = jobCountsSchema.parse(await res.json()); // { all: 12, quote: 3, scheduled: 2, … }
 */
export const jobCountsSchema = z.object({
  all: z.number().int(),
  ...(Object.fromEntries(jobStatuses.map((s) => [s, z.number().int()])) as Record<JobStatus, z.ZodNumber>),
});
/**
 * Counts per status and in all.
 * @example
 * const tabLabel = (counts: JobCounts) => `Scheduled (${counts.scheduled})`;
 */
export type JobCounts = z.infer<typeof jobCountsSchema>;

/**
 * The body of POST /api/jobs/{id}/move: a one-click status move (decision 0092). It must be an
 * allowed move; moving into scheduled needs `scheduled_start_dt` unless the job already has one.
 * The move is remembered so that exactly it can be undone (POST /api/jobs/{id}/revert).
 * @example
 * jobMoveSchema.parse({ status: 'scheduled', scheduled_start_dt: Date.parse('2026-12-01T09:00:00Z') });
 */
export const jobMoveSchema = z
  .object({
    status: jobStatusSchema,
    scheduled_start_dt: jobFieldRules.scheduled_start_dt.optional(),
    scheduled_end_dt: jobFieldRules.scheduled_end_dt.optional(),
  })
  .superRefine(checkSchedule);
/**
 * A one-click status move.
 * @example
 * const move: JobMove = { status: 'completed' };
 */
export type JobMove = z.input<typeof jobMoveSchema>;

/**
 * The body of POST /api/jobs/{id}/revert: the `modified_dt` (version, as in the ETag) the move to
 * undo produced. Only that move, and only while the job is still at that version.
 * @example
 * jobRevertSchema.parse({ version: movedJob.modified_dt });
 */
export const jobRevertSchema = z.object({
  version: z.number('Send the version the move produced (its modified_dt).').int('Send the version the move produced (its modified_dt).'),
});
/**
 * The body of a revert.
 * @example
 * const body: JobRevert = { version: 1767225600000 };
 */
export type JobRevert = z.infer<typeof jobRevertSchema>;

/**
 * How long after a one-click move it can still be undone through the API, in milliseconds. The app
 * offers Undo for a few seconds; the API allows a little more, for a slow network or a retry.
 * @example
 * if (Date.now() - job.modified_dt < jobMoveRevertWindowMs) showUndo();
 */
export const jobMoveRevertWindowMs = 10 * 60 * 1000;
