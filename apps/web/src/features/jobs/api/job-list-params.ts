import {
  calendarDaySchema,
  calendarMonthSchema,
  parseCalendarDate,
  startOfZonedDay,
  jobSortFields,
  jobStatusSchema,
  zonedMonthRange,
  type JobListParams,
  type JobSortField,
  type JobStatus,
} from '@otto/api-contract';
import type { QueryClient } from '@tanstack/react-query';
import { browserTimeZone } from '../../../lib/browser-time-zone';
import { readListOrder, sortFilter, type ListSort } from '../../../lib/list-order';
import { readListPlace } from '../../../lib/use-list-search-params';
import { jobCountsOptions, type JobCountParams } from './get-job-counts';
import { jobsOptions } from './get-jobs';

/** What the job list's URL asks for: the status tab, the month paid in, the order and page size, and the two requests. */
export interface JobListRequest {
  status: JobStatus | undefined;
  sort: ListSort<JobSortField> | undefined;
  pageSize: number;
  /** `paid=2026-03` (the Overview's bars); an invalid value is ignored, like an unknown status. */
  paidMonth: string | undefined;
  /** `open=2026-11-23`: jobs still open that start before that day (the Overview's "from before this week"). */
  openBefore: string | undefined;
  /** The page of jobs. */
  list: JobListParams;
  /** The counts per status tab (the same search, every status). */
  counts: JobCountParams;
}

/**
 * Reads the job list's URL: `q`, `status`, `paid`, `open`, `sort`, `order`, `size` and `page`.
 * @example
 * jobListRequest(new URLSearchParams('status=paid&q=roof')).list; // { queryText: 'roof', status: 'paid', limit: 10, offset: 0 }
 */
export function jobListRequest(searchParams: URLSearchParams): JobListRequest {
  const { query, page } = readListPlace(searchParams);
  const parsedStatus = jobStatusSchema.safeParse(searchParams.get('status'));
  const status = parsedStatus.success ? parsedStatus.data : undefined;
  const { sort, pageSize } = readListOrder(searchParams, jobSortFields);
  // The month's bounds in this browser's time zone.
  const parsedPaid = calendarMonthSchema.safeParse(searchParams.get('paid'));
  const paidMonth = parsedPaid.success ? parsedPaid.data : undefined;
  const paidRange = paidMonth ? zonedMonthRange(paidMonth, browserTimeZone()) : undefined;
  // The day's start in this browser's time zone.
  const parsedOpen = calendarDaySchema.safeParse(searchParams.get('open'));
  const openBefore = parsedOpen.success ? parsedOpen.data : undefined;
  const openDay = openBefore ? parseCalendarDate(openBefore) : undefined;
  const counts: JobCountParams = {
    ...(query ? { queryText: query } : {}),
    ...(paidRange ? { paidFrom: paidRange.start, paidBefore: paidRange.end } : {}),
    ...(openDay ? { openBefore: startOfZonedDay(openDay.year, openDay.month, openDay.day, browserTimeZone()) } : {}),
  };
  const list: JobListParams = { ...counts, ...(status ? { status } : {}), ...sortFilter(sort), limit: pageSize, offset: (page - 1) * pageSize };
  return { status, sort, pageSize, paidMonth, openBefore, list, counts };
}

/** Starts the job list's two requests for `url` (the list screen's first data). */
export function prefetchJobList(queryClient: QueryClient, url: URL): void {
  const { list, counts } = jobListRequest(url.searchParams);
  void queryClient.prefetchQuery(jobsOptions(list));
  void queryClient.prefetchQuery(jobCountsOptions(counts));
}
