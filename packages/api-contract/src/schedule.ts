// The schedule: the jobs on the calendar over some days, for the day and week views.
import { z } from 'zod';
import { jobSchema } from './job';
import { limits } from './limits';
import { calendarDaySchema, timeZoneSchema } from './report';

const day = 24 * 60 * 60 * 1000;

/**
 * A job as the schedule shows it: who, what, where and when, its status and its version
 * (`modified_dt`, for If-Match when it is moved). The rest of the job (description, price, status
 * dates) is a GET /api/jobs/{id} away.
 * @example
 * const card = scheduleJobSchema.parse(answer.jobs[0]);
 */
export const scheduleJobSchema = jobSchema.pick({
  id: true,
  customer_id: true,
  customer_name: true,
  title: true,
  service_address: true,
  status: true,
  assignee: true,
  scheduled_start_dt: true,
  scheduled_end_dt: true,
  modified_dt: true,
});
/**
 * A job on the schedule.
 * @example
 * const label = (job: ScheduleJob) => `${job.title} · ${job.customer_name}`;
 */
export type ScheduleJob = z.infer<typeof scheduleJobSchema>;

/**
 * How far before the first day a job may start and still be listed because it runs into the days
 * asked for, in milliseconds (decision 0160). A job lasts hours or a few days; one that began longer
 * ago than this is listed on the days its start falls in, not on later ones.
 * @example
 * const earliestStart = firstDayStart - scheduleLookbackMs;
 */
export const scheduleLookbackMs = 14 * day;

/**
 * filterJson of GET /api/jobs/schedule: `days` calendar days from `start` in the time zone `tz`
 * (at most `limits.maxScheduleDays`), and at most `perCell` jobs per person per day (the earliest;
 * `more` counts the rest).
 * @example
 * `/api/jobs/schedule?filterJson=${encodeURIComponent(JSON.stringify({ tz: 'Europe/Berlin', start: '2026-11-23', days: 7 }))}`
 */
export const scheduleParamsSchema = z.object({
  tz: timeZoneSchema,
  start: calendarDaySchema,
  days: z
    .number('Send days as a whole number.')
    .int('Send days as a whole number.')
    .min(1, 'Ask for at least one day.')
    .max(limits.maxScheduleDays, `A schedule covers at most ${limits.maxScheduleDays} days.`),
  perCell: z
    .number('Send perCell as a whole number.')
    .int('Send perCell as a whole number.')
    .min(1, 'perCell is at least 1.')
    .max(limits.maxSchedulePerCell, `perCell is at most ${limits.maxSchedulePerCell}.`)
    .optional(),
});
/**
 * What a schedule request asks for.
 * @example
 * const week: ScheduleParams = { tz: 'Europe/Berlin', start: '2026-11-23', days: 7 };
 */
export type ScheduleParams = z.infer<typeof scheduleParamsSchema>;

/**
 * The answer of GET /api/jobs/schedule. `days`: each day asked for with the instants it starts and
 * ends at in `tz`. `jobs`: the jobs on the calendar over those days (`scheduleJobSchema`) (a scheduled start, not
 * cancelled, not archived, a start or end within them), at most `perCell` per person per day (a
 * job that began before the first day counts on the first), earliest start first, at most
 * `limits.maxScheduleJobs` in all (`truncated` says more were left out, as it does when more people
 * have jobs than `limits.maxScheduleAssignees`: theirs are not shown). `more`: how many jobs
 * each person's day holds beyond those. `assignees` names the lanes.
 * @example
 * const { days, jobs, more } = scheduleSchema.parse(await res.json());
 */
export const scheduleSchema = z.object({
  days: z.array(z.object({ date: z.string(), start_dt: z.number().int(), end_dt: z.number().int() })),
  jobs: z.array(scheduleJobSchema),
  /** Per person and day with more jobs than `perCell`: how many were left out. */
  more: z.array(z.object({ assignee: z.string(), date: z.string(), count: z.number().int() })),
  truncated: z.boolean(),
  /**
   * Everyone a job not archived is assigned to, in code-point order, at most
   * `limits.maxScheduleAssignees` (the schedule's lanes; the unassigned jobs' lane is not in it).
   */
  assignees: z.array(z.string()),
});
/**
 * The jobs of some days of the schedule.
 * @example
 * const lanes = (s: Schedule) => new Set(s.jobs.map((j) => j.assignee));
 */
export type Schedule = z.infer<typeof scheduleSchema>;
