import {
  addMonths,
  formatDay,
  formatMonth,
  jobStatuses,
  limits,
  parseCalendarDate,
  startOfZonedDay,
  zonedMonthRange,
  zonedParts,
  type JobCounts,
  type JobStatus,
  type ReportSummary,
  type WeekJob,
} from '@otto/api-contract';
import { owedSummary } from '../invoices/invoice-repository';
import { keptAll, keptGet } from '../sql/kept-results';
import type { SqlClient } from '../sql/types';

/** The summary's inputs, defaults filled in. */
export interface SummaryRequest {
  tz: string;
  /** First and last month of the charts, `YYYY-MM`, inclusive. */
  from: string;
  to: string;
  /** First day of the week, `YYYY-MM-DD`. */
  weekStart: string;
  topOwing: number;
  /** Today in `tz`, `YYYY-MM-DD`: money owed by age and overdue count from it. */
  today: string;
}

/**
 * Fills the defaults of the summary filter from the clock, in the time zone asked for: the 12
 * months up to the current one, and this week from its Monday (ISO weeks).
 */
export function summaryRequest(
  filter: { tz: string; from?: string; to?: string; weekStart?: string; topOwing?: number },
  now: number,
): SummaryRequest {
  const today = zonedParts(now, filter.tz);
  const thisMonth = formatMonth(today.year, today.month);
  const to = filter.to ?? thisMonth;
  const from = filter.from ?? addMonths(to, -11);
  // Date.UTC's weekday of a calendar date is the same in every zone.
  const weekday = (new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay() + 6) % 7;
  const weekStart = filter.weekStart ?? formatDay(today.year, today.month, today.day - weekday);
  return { tz: filter.tz, from, to, weekStart, topOwing: filter.topOwing ?? 5, today: formatDay(today.year, today.month, today.day) };
}

interface Bucket {
  label: string;
  start: number;
  end: number;
}

function monthBuckets(from: string, to: string, tz: string): Bucket[] {
  const buckets: Bucket[] = [];
  for (let month = from; month <= to; month = addMonths(month, 1)) {
    const { start, end } = zonedMonthRange(month, tz);
    buckets.push({ label: month, start, end });
  }
  return buckets;
}

const dayMs = 86_400_000;

type Sums = Map<number, { n: number; cents: number }>;

function addTo(sums: Sums, i: number, n: number, cents: number): void {
  const at = sums.get(i) ?? { n: 0, cents: 0 };
  sums.set(i, { n: at.n + n, cents: at.cents + cents });
}

/**
 * Sums or counts rows per bucket (a local month): its whole UTC days from a day-totals table
 * (migration 8), its partial days at either end from the rows' own index. SQLite knows no time
 * zones, so the buckets' UTC boundaries were computed in JS; they go into SQL as JSON.
 *
 * A partial day longer than half a day is counted as its whole day less the rest of that day (in
 * Europe/London's summer a month ends 23 hours into a UTC day: one day's total less one hour of
 * rows), so the rows read from the index are at most half a day's per end of a bucket, and none
 * in a zone whose months begin on UTC midnights. The bucket lists are MATERIALIZED: read as a
 * view, each joined row would parse the JSON again.
 */
async function perBucket(
  db: SqlClient,
  buckets: Bucket[],
  sql: { days: string; rows: string },
): Promise<Sums> {
  const whole: [number, number, number][] = [];
  const add: [number, number, number][] = [];
  const less: [number, number, number][] = [];
  const halfDay = dayMs / 2;
  buckets.forEach((b, i) => {
    let first = Math.ceil(b.start / dayMs);
    let last = Math.floor(b.end / dayMs);
    if (first >= last) {
      add.push([i, b.start, b.end]);
      return;
    }
    const head = first * dayMs - b.start;
    if (head > halfDay) {
      first -= 1;
      less.push([i, first * dayMs, b.start]);
    } else if (head > 0) add.push([i, b.start, first * dayMs]);
    const tail = b.end - last * dayMs;
    if (tail > halfDay) {
      less.push([i, b.end, (last + 1) * dayMs]);
      last += 1;
    } else if (tail > 0) add.push([i, last * dayMs, b.end]);
    whole.push([i, first, last]);
  });
  const sums: Sums = new Map();
  const run = async (pieces: [number, number, number][], body: string, sign: 1 | -1) => {
    if (pieces.length === 0) return;
    // Kept until the data changes, as the week's counts are: at a million customers the partial
    // days' rows are most of the summary's time (decision 0152).
    const rows = await keptAll<{ i: number; n: number; cents: number }>(
      db,
      `WITH b(i, lo, hi) AS MATERIALIZED (${db.dialect.jsonTriples}) ${body}`,
      [JSON.stringify(pieces)],
    );
    for (const r of rows) addTo(sums, r.i, sign * r.n, sign * r.cents);
  };
  await run(whole, sql.days, 1);
  await run(add, sql.rows, 1);
  await run(less, sql.rows, -1);
  return sums;
}

async function paidPerMonth(db: SqlClient, request: SummaryRequest): Promise<ReportSummary['paid_per_month']> {
  const months = monthBuckets(request.from, request.to, request.tz);
  const previous = monthBuckets(addMonths(request.from, -12), addMonths(request.to, -12), request.tz);
  // The jobs paid in a month: paid is final, so a paid job's paid_dt is when the money came in.
  const sums = await perBucket(db, [...previous, ...months], {
    days: `SELECT b.i AS i, sum(d.n) AS n, sum(d.cents) AS cents FROM b JOIN paid_days d ON d.day >= b.lo AND d.day < b.hi GROUP BY b.i`,
    rows: `SELECT b.i AS i, count(*) AS n, sum(j.price_cents) AS cents
     FROM b JOIN jobs j ${db.dialect.indexedBy('jobs_paid_idx')} ON j.paid_dt >= b.lo AND j.paid_dt < b.hi AND j.status = 'paid' AND j.archived_dt IS NULL
     GROUP BY b.i`,
  });
  return months.map((month, index) => {
    const before = previous[index] as Bucket;
    const now = sums.get(previous.length + index);
    const then = sums.get(index);
    return {
      month: month.label,
      start_dt: month.start,
      end_dt: month.end,
      paid_cents: now?.cents ?? 0,
      jobs: now?.n ?? 0,
      previous_year: { month: before.label, start_dt: before.start, end_dt: before.end, paid_cents: then?.cents ?? 0, jobs: then?.n ?? 0 },
    };
  });
}

async function newCustomersPerMonth(db: SqlClient, request: SummaryRequest): Promise<ReportSummary['new_customers_per_month']> {
  const months = monthBuckets(request.from, request.to, request.tz);
  const counts = await perBucket(db, months, {
    days: `SELECT b.i AS i, sum(d.n) AS n, 0 AS cents FROM b JOIN customer_days d ON d.day >= b.lo AND d.day < b.hi GROUP BY b.i`,
    rows: `SELECT b.i AS i, count(*) AS n, 0 AS cents
     FROM b JOIN customers c ${db.dialect.indexedBy('customers_created_dt_idx')} ON c.created_dt >= b.lo AND c.created_dt < b.hi AND c.archived_dt IS NULL
     GROUP BY b.i`,
  });
  return months.map((month, index) => ({ month: month.label, start_dt: month.start, end_dt: month.end, customers: counts.get(index)?.n ?? 0 }));
}

interface WeekRow {
  i: number;
  id: number;
  title: string;
  status: JobStatus;
  customer_id: number;
  customer_name: string;
  scheduled_start_dt: number;
  scheduled_end_dt: number | null;
  price_cents: number;
}

async function week(db: SqlClient, request: SummaryRequest): Promise<ReportSummary['week']> {
  const { year, month, day } = parseCalendarDate(request.weekStart);
  const days: Bucket[] = Array.from({ length: 7 }, (_, i) => ({
    label: formatDay(year, month, day + i),
    start: startOfZonedDay(year, month, day + i, request.tz),
    end: startOfZonedDay(year, month, day + i + 1, request.tz),
  }));
  const open = `status IN ('scheduled', 'in_progress') AND archived_dt IS NULL`;
  const inDay = `scheduled_start_dt >= ? AND scheduled_start_dt < ? AND ${open}`;
  const week = db.dialect.indexedBy('jobs_week_idx');
  // Each day's total is a count over the partial index's range, and its first jobs by start time
  // a seek with a LIMIT: the work grows with the jobs shown, not with all the jobs of the week.
  // Seven uncorrelated pieces, written out: PostgreSQL before 17 would run a correlated IN once
  // per job and day.
  // The counts, with the open jobs from before the week, and the jobs shown are kept until the
  // data changes, as a search's are (kept-results.ts): the Overview asked again with nothing
  // written reads none again.
  const counts = await keptGet<Record<string, number | string>>(
    db,
    `SELECT ${days.map((_, i) => `(SELECT count(*) FROM jobs ${week} WHERE ${inDay}) AS n${i}`).join(', ')},
       (SELECT count(*) FROM jobs ${week} WHERE scheduled_start_dt < ? AND ${open}) AS before`,
    [...days.flatMap((d) => [d.start, d.end]), days[0]?.start ?? 0],
  );
  const firsts = days.map((_, i) => `SELECT ${i} AS i, id FROM (SELECT id FROM jobs ${week} WHERE ${inDay} ORDER BY scheduled_start_dt, id LIMIT ?) AS d${i}`);
  const rows = await keptAll<WeekRow>(
    db,
    `SELECT f.i AS i, j.id AS id, j.title AS title, j.status AS status, j.customer_id AS customer_id,
       c.full_name AS customer_name, j.scheduled_start_dt AS scheduled_start_dt, j.scheduled_end_dt AS scheduled_end_dt,
       j.price_cents AS price_cents
     FROM (${firsts.join(' UNION ALL ')}) AS f JOIN jobs j ON j.id = f.id JOIN customers c ON c.id = j.customer_id
     ORDER BY f.i, j.scheduled_start_dt, j.id`,
    days.flatMap((d) => [d.start, d.end, limits.maxWeekJobsPerDay]),
  );
  return {
    start: days[0]?.label ?? request.weekStart,
    days: days.map((d, index) => {
      const mine = rows.filter((r) => Number(r.i) === index);
      return {
        date: d.label,
        start_dt: d.start,
        end_dt: d.end,
        total: Number(counts?.[`n${index}`] ?? 0),
        jobs: mine.map(
          (r): WeekJob => ({
            id: String(r.id),
            title: r.title,
            status: r.status,
            customer_id: String(r.customer_id),
            customer_name: r.customer_name,
            scheduled_start_dt: r.scheduled_start_dt,
            scheduled_end_dt: r.scheduled_end_dt,
            price_cents: r.price_cents,
          }),
        ),
      };
    }),
    before: Number(counts?.before ?? 0),
  };
}

async function owed(db: SqlClient, request: SummaryRequest): Promise<ReportSummary['owed']> {
  // The open invoices alone (migration 18's invoices_open_idx): their balances, by age and overdue.
  return owedSummary(db, request.today, request.topOwing);
}

async function jobsByStatus(db: SqlClient): Promise<JobCounts> {
  // The counters of migration 3, kept exact by triggers.
  const counts = Object.fromEntries([['all', 0], ...jobStatuses.map((s) => [s, 0])]) as JobCounts;
  for (const row of await db.all<{ status: JobStatus; n: number }>('SELECT status, sum(n) AS n FROM job_counts GROUP BY status')) {
    counts[row.status] = row.n;
    counts.all += row.n;
  }
  return counts;
}

/**
 * Every figure of the Overview, computed in SQL: money summed as integers (exact), months and days
 * bucketed by the UTC boundaries of the requested time zone's calendar. Archived jobs and
 * customers are left out, as from every list and count.
 * @example
 * const summary = await reportSummary(db, summaryRequest({ tz: 'Europe/Berlin' }, Date.now()));
 */
export async function reportSummary(db: SqlClient, request: SummaryRequest): Promise<ReportSummary> {
  return {
    tz: request.tz,
    week: await week(db, request),
    owed: await owed(db, request),
    paid_per_month: await paidPerMonth(db, request),
    jobs_by_status: await jobsByStatus(db),
    new_customers_per_month: await newCustomersPerMonth(db, request),
  };
}
