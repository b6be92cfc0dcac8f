import { reportSummarySchema, type ReportSummary } from '../report';
import { check, expectBody, expectError, expectStatus, tick } from './kit-client';
import type { ConformanceRule, RuleContext } from './rule-context';

async function summary(ctx: RuleContext, filter: unknown): Promise<ReportSummary> {
  const reply = await ctx.api.call('GET', '/reports/summary', { filter });
  expectStatus(reply, 200);
  return expectBody(reply, reportSummarySchema, 'the summary report');
}

const thisMonth = (s: ReportSummary) => s.paid_per_month.at(-1);
const thisMonthCustomers = (s: ReportSummary) => s.new_customers_per_month.at(-1)?.customers ?? 0;
const dayOf = (s: ReportSummary, at: number) => s.week.days.find((d) => d.start_dt <= at && at < d.end_dt);

/** The summary report (decision 0080): figures that follow the writes, months in the time zone, bad filters. */
export const reportRules: ConformanceRule[] = [
  {
    id: 'reports.summary.follows-writes',
    title:
      'GET /reports/summary counts a new customer in this month, a job in progress on its day this week, an invoiced job as money owed and a paid one in this month, in exact cents.',
    async run(ctx) {
      const filter = { tz: 'UTC' };
      const before = await summary(ctx, filter);
      check(before.paid_per_month.length === 12 && before.new_customers_per_month.length === 12 && before.week.days.length === 7,
        () => `expected 12 months and 7 days by default: ${JSON.stringify(before).slice(0, 300)}`);
      const customer = await ctx.createCustomer(`${ctx.token}report`);
      const price = 12_345;
      const start = Date.now();
      const job = await ctx.createJob(customer.id, { price_cents: price, status: 'scheduled', scheduled_start_dt: start });
      await tick();
      expectStatus(await ctx.api.call('PATCH', `/jobs/${job.id}`, { body: { status: 'in_progress' } }), 200, 'moving the job to in progress');
      const running = await summary(ctx, filter);
      check(thisMonthCustomers(running) === thisMonthCustomers(before) + 1, () => `expected one more new customer this month: ${JSON.stringify(running.new_customers_per_month.at(-1))}`);
      check((dayOf(running, start)?.total ?? 0) === (dayOf(before, start)?.total ?? 0) + 1, () => `expected one more job on the day it starts: ${JSON.stringify(dayOf(running, start))}`);
      check(running.jobs_by_status.in_progress === before.jobs_by_status.in_progress + 1, () => 'expected one more job in progress');
      for (const status of ['completed', 'invoiced']) {
        await tick();
        expectStatus(await ctx.api.call('PATCH', `/jobs/${job.id}`, { body: { status } }), 200, `moving the job to ${status}`);
      }
      const invoiced = await summary(ctx, filter);
      check(invoiced.owed.total_cents === before.owed.total_cents + price && invoiced.owed.jobs === before.owed.jobs + 1,
        () => `expected ${price} cents more owed on one more job: before ${JSON.stringify(before.owed.total_cents)}, after ${JSON.stringify(invoiced.owed)}`);
      await tick();
      expectStatus(await ctx.api.call('PATCH', `/jobs/${job.id}`, { body: { status: 'paid' } }), 200, 'moving the job to paid');
      const paid = await summary(ctx, filter);
      check(paid.owed.total_cents === before.owed.total_cents, () => `a paid job is no longer owed: ${JSON.stringify(paid.owed)}`);
      check((thisMonth(paid)?.paid_cents ?? 0) === (thisMonth(before)?.paid_cents ?? 0) + price && (thisMonth(paid)?.jobs ?? 0) === (thisMonth(before)?.jobs ?? 0) + 1,
        () => `expected ${price} cents more paid this month: ${JSON.stringify(thisMonth(before))} → ${JSON.stringify(thisMonth(paid))}`);
    },
  },
  {
    id: 'reports.summary.time-zone',
    title: 'GET /reports/summary bounds months and days by the calendar of tz: a half-hour zone, a day 23 hours long at a DST change.',
    async run(ctx) {
      const months = await summary(ctx, { tz: 'Asia/Kolkata', from: '2026-01', to: '2026-02' });
      const want = [
        ['2026-01', Date.UTC(2025, 11, 31, 18, 30), Date.UTC(2026, 0, 31, 18, 30), '2025-01'],
        ['2026-02', Date.UTC(2026, 0, 31, 18, 30), Date.UTC(2026, 1, 28, 18, 30), '2025-02'],
      ];
      const got = months.paid_per_month.map((m) => [m.month, m.start_dt, m.end_dt, m.previous_year.month]);
      check(JSON.stringify(got) === JSON.stringify(want), () => `expected months ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
      const week = await summary(ctx, { tz: 'Europe/Berlin', weekStart: '2026-03-23' });
      const sunday = week.week.days[6];
      check(sunday?.date === '2026-03-29' && sunday.start_dt === Date.UTC(2026, 2, 28, 23) && sunday.end_dt === Date.UTC(2026, 2, 29, 22),
        () => `expected Sunday 29 March 2026 in Berlin to last 23 hours: ${JSON.stringify(sunday)}`);
    },
  },
  {
    id: 'reports.summary.bad-filter',
    title: 'GET /reports/summary without a time zone, with an unknown one, or with months out of order answers 400 INVALID_PARAMS.',
    async run({ api }) {
      expectError(await api.call('GET', '/reports/summary'), 400, 'INVALID_PARAMS');
      for (const filter of [{ tz: 'Mars/Olympus' }, { tz: 'UTC', from: '2026-05', to: '2026-04' }, { tz: 'UTC', weekStart: '2026-02-30' }]) {
        expectError(await api.call('GET', '/reports/summary', { filter }), 400, 'INVALID_PARAMS');
      }
    },
  },
];
