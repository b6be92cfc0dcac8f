import { z } from 'zod';
import { jobCountsSchema, jobStatusSchema } from './job';
import { limits } from './limits';
import { isTimeZone, parseCalendarDate } from './time-zone';

const monthPattern = /^\d{4}-(0[1-9]|1[0-2])$/;
const dayPattern = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/**
 * A calendar month, `YYYY-MM`.
 * @example
 * calendarMonthSchema.parse('2026-03');
 */
export const calendarMonthSchema = z.string().regex(monthPattern, 'Write a month as YYYY-MM, such as 2026-03.');

/**
 * A calendar day, `YYYY-MM-DD`, that exists.
 * @example
 * calendarDaySchema.parse('2026-11-23');
 */
export const calendarDaySchema = z
  .string()
  .regex(dayPattern, 'Write a day as YYYY-MM-DD, such as 2026-11-23.')
  .refine((value) => {
    const { year, month, day } = parseCalendarDate(value);
    const d = new Date(Date.UTC(year, month - 1, day));
    return d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
  }, 'That day does not exist.');

/**
 * An IANA time zone name the runtime knows, such as the browser's
 * `Intl.DateTimeFormat().resolvedOptions().timeZone`.
 * @example
 * timeZoneSchema.parse('Europe/Berlin');
 */
export const timeZoneSchema = z
  .string('Pass the time zone as text, such as "Europe/Berlin".')
  .refine(isTimeZone, 'Unknown time zone. Pass an IANA name such as "Europe/Berlin" (the browser\'s Intl.DateTimeFormat().resolvedOptions().timeZone).');

const monthIndex = (month: string) => {
  const { year, month: m } = parseCalendarDate(month);
  return year * 12 + m - 1;
};

/**
 * filterJson of GET /api/reports/summary. `tz` is required: months and days are the browser's, and
 * only it knows its time zone. `from`/`to` are the months of the money and customer charts
 * (inclusive; by default the 12 months up to the current one in `tz`); `weekStart` the first of
 * the 7 days of "this week" (by default this week's Monday in `tz`); `topOwing` how many customers
 * who owe the most to list.
 * @example
 * const filter: ReportSummaryParams = { tz: 'Europe/Berlin', from: '2025-12', to: '2026-11', weekStart: '2026-11-23' };
 */
export const reportSummaryParamsSchema = z
  .object({
    tz: timeZoneSchema,
    from: calendarMonthSchema.optional(),
    to: calendarMonthSchema.optional(),
    weekStart: calendarDaySchema.optional(),
    topOwing: z
      .number()
      .int('topOwing must be a whole number.')
      .min(1, 'topOwing must be at least 1.')
      .max(limits.maxTopOwing, `topOwing can be at most ${limits.maxTopOwing}.`)
      .optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.from === undefined) !== (value.to === undefined)) {
      ctx.addIssue({ code: 'custom', path: [value.from === undefined ? 'from' : 'to'], message: 'Pass both from and to, or neither.' });
      return;
    }
    if (value.from === undefined || value.to === undefined) return;
    const span = monthIndex(value.to) - monthIndex(value.from) + 1;
    if (span < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to cannot be before from.' });
    if (span > limits.maxReportMonths) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: `A report covers at most ${limits.maxReportMonths} months.` });
    }
  });
/**
 * The filter of the summary report.
 * @example
 * const filter: ReportSummaryParams = { tz: Intl.DateTimeFormat().resolvedOptions().timeZone };
 */
export type ReportSummaryParams = z.infer<typeof reportSummaryParamsSchema>;

const cents = z.number().int();
const count = z.number().int().min(0);

/**
 * A scheduled or in-progress job on a day of "this week".
 * @example
 * const job: WeekJob = summary.week.days[0].jobs[0];
 */
export const weekJobSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: jobStatusSchema,
  customer_id: z.string(),
  customer_name: z.string(),
  scheduled_start_dt: z.number().int(),
  scheduled_end_dt: z.number().int().nullable(),
  price_cents: cents,
});
/**
 * A job of the week.
 * @example
 * const starts = (job: WeekJob) => new Date(job.scheduled_start_dt);
 */
export type WeekJob = z.infer<typeof weekJobSchema>;

/**
 * The answer of GET /api/reports/summary. Money is whole cents, summed exactly; every month and day
 * carries its boundaries `[start_dt, end_dt)` in epoch ms, computed in the time zone asked for.
 * @example
 * const summary = reportSummarySchema.parse(await res.json());
 * const thisMonth = summary.paid_per_month.at(-1)?.paid_cents;
 */
export const reportSummarySchema = z.object({
  tz: z.string(),
  week: z.object({
    start: z.string(),
    /** Seven days; on each, scheduled and in-progress jobs that start that day (at most `limits.maxWeekJobsPerDay`). */
    days: z.array(
      z.object({
        date: z.string(),
        start_dt: z.number().int(),
        end_dt: z.number().int(),
        total: count,
        jobs: z.array(weekJobSchema),
      }),
    ),
    /** Scheduled or in-progress jobs that started before this week. */
    before: count,
  }),
  owed: z.object({
    /** The balances due of the open invoices. */
    total_cents: cents,
    /** The jobs those invoices bill. */
    jobs: count,
    /** How many invoices are open. */
    invoices: count,
    /** The customers who owe the most, with the jobs their open invoices bill. */
    customers: z.array(z.object({ customer_id: z.string(), customer_name: z.string(), owed_cents: cents, jobs: count })),
    /**
     * The balances due by days since the invoice's issue date in `tz` (0-30, 31-60, 61-90, 90+),
     * each with its invoices; `overdue` is the part past its due date.
     */
    by_age: z.array(z.object({ age: z.enum(['0-30', '31-60', '61-90', '90+']), owed_cents: cents, invoices: count })),
    overdue: z.object({ owed_cents: cents, invoices: count }),
  }),
  /** Paid jobs by the month they were paid, with the same month a year earlier. */
  paid_per_month: z.array(
    z.object({
      month: z.string(),
      start_dt: z.number().int(),
      end_dt: z.number().int(),
      paid_cents: cents,
      jobs: count,
      previous_year: z.object({ month: z.string(), start_dt: z.number().int(), end_dt: z.number().int(), paid_cents: cents, jobs: count }),
    }),
  ),
  /** Every job now, per status (as GET /api/jobs/counts without a filter). */
  jobs_by_status: jobCountsSchema,
  new_customers_per_month: z.array(z.object({ month: z.string(), start_dt: z.number().int(), end_dt: z.number().int(), customers: count })),
});
/**
 * The summary report.
 * @example
 * const owed = (s: ReportSummary) => s.owed.total_cents;
 */
export type ReportSummary = z.infer<typeof reportSummarySchema>;
