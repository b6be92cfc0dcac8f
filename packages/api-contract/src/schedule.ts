// The schedule: every job on the calendar between two instants, for the day and week views.
import { z } from 'zod';
import { jobSchema } from './job';
import { limits } from './limits';

const day = 24 * 60 * 60 * 1000;

/**
 * How far before a range a job may start and still be listed because it runs into the range, in
 * milliseconds (decision 0160). A job lasts hours or a few days; one that began longer ago than this
 * is listed in the ranges its start falls in, not in later ones.
 * @example
 * const earliestStart = from - scheduleLookbackMs;
 */
export const scheduleLookbackMs = 14 * day;

const instant = (what: string) =>
  z
    .number(`Send ${what} as epoch milliseconds.`)
    .int(`Send ${what} as whole epoch milliseconds.`)
    .min(0, `Send ${what} after 1970.`)
    .max(8_640_000_000_000_000, `Send ${what} as a real date.`);

/**
 * filterJson of GET /api/jobs/schedule: the range `[from, before)`, at most
 * `limits.maxScheduleDays` days long.
 * @example
 * `/api/jobs/schedule?filterJson=${encodeURIComponent(JSON.stringify({ from: monday, before: nextMonday }))}`
 */
export const scheduleParamsSchema = z
  .object({
    from: instant('from'),
    before: instant('before'),
  })
  .superRefine((range, ctx) => {
    if (range.before <= range.from) ctx.addIssue({ code: 'custom', path: ['before'], message: 'before must be after from.' });
    else if (range.before - range.from > limits.maxScheduleDays * day) {
      ctx.addIssue({ code: 'custom', path: ['before'], message: `A schedule covers at most ${limits.maxScheduleDays} days.` });
    }
  });
/**
 * The range of a schedule request.
 * @example
 * const week: ScheduleParams = { from: Date.parse('2026-11-23T00:00:00Z'), before: Date.parse('2026-11-30T00:00:00Z') };
 */
export type ScheduleParams = z.infer<typeof scheduleParamsSchema>;

/**
 * The answer of GET /api/jobs/schedule: the jobs on the calendar in the range (a scheduled start,
 * not cancelled, not archived, and a start or end inside it), earliest start first, at most
 * `limits.maxScheduleJobs`; `truncated` says more were left out. `assignees` names the lanes.
 * @example
 * const { jobs, truncated } = scheduleSchema.parse(await res.json());
 */
export const scheduleSchema = z.object({
  from: z.number().int(),
  before: z.number().int(),
  jobs: z.array(jobSchema),
  truncated: z.boolean(),
  /**
   * Everyone a job not archived is assigned to, in code-point order, at most
   * `limits.maxScheduleAssignees` (the schedule's lanes; the unassigned jobs' lane is not in it).
   */
  assignees: z.array(z.string()),
});
/**
 * The jobs of one schedule range.
 * @example
 * const lanes = (s: Schedule) => new Set(s.jobs.map((j) => j.assignee));
 */
export type Schedule = z.infer<typeof scheduleSchema>;
