import {
  jobStatusLabels,
  jobStatuses,
  type JobSortField,
  type JobStatus,
} from '@otto/api-contract';
import { Button, EmptyState, Pagination, SearchBox, SegmentedNav, buttonClassName } from '@otto/ui';
import { useCallback, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatCount } from '../../../lib/format';
import { ListControls, type OrderChoice } from '../../../lib/list-controls';
import { nextSort, pageSizes, type ListSort } from '../../../lib/list-order';
import { paths } from '../../../lib/paths';
import { LoadErrorNotice } from '../../../lib/load-error-notice';
import { useListSearchParams } from '../../../lib/use-list-search-params';
import { useOpenTopMatch } from '../../../lib/use-open-top-match';
import { useSearchText } from '../../../lib/use-search-text';
import { useJobCounts } from '../api/get-job-counts';
import { useJobs } from '../api/get-jobs';
import { jobListRequest } from '../api/job-list-params';
import { JobTable } from './job-table';

type Sort = ListSort<JobSortField>;

const orderChoices: OrderChoice<JobSortField>[] = [
  { sort: { by: 'scheduled_start_dt', order: 'asc' }, label: 'Scheduled, soonest first' },
  { sort: { by: 'scheduled_start_dt', order: 'desc' }, label: 'Scheduled, latest first' },
  { sort: { by: 'price_cents', order: 'desc' }, label: 'Price, highest first' },
  { sort: { by: 'price_cents', order: 'asc' }, label: 'Price, lowest first' },
  { sort: { by: 'title', order: 'asc' }, label: 'Title, A to Z' },
  { sort: { by: 'title', order: 'desc' }, label: 'Title, Z to A' },
  { sort: { by: 'status', order: 'asc' }, label: 'Status, from quote to paid' },
  { sort: { by: 'status', order: 'desc' }, label: 'Status, from paid to quote' },
  { sort: { by: 'modified_dt', order: 'desc' }, label: 'Most recently changed first' },
  { sort: { by: 'modified_dt', order: 'asc' }, label: 'Least recently changed first' },
];

function orderWords(sort: Sort | undefined, query: string): string {
  if (sort) return orderChoices.find((c) => c.sort.by === sort.by && c.sort.order === sort.order)?.label ?? '';
  return query ? 'Best matches first' : 'Most recently changed first';
}

/** Every job, with status tabs and their counts, search as you type and paging, all kept in the URL. */
export function JobList() {
  const { query, page, searchParams, update } = useListSearchParams();
  const { status, sort, pageSize, paidMonth, openBefore, list, counts: countParams } = jobListRequest(searchParams);
  const setQuery = useCallback((q: string, options: { replace: boolean }) => update({ q, page: null }, options), [update]);
  const { text, setText, pending } = useSearchText(query, setQuery);
  const setSort = (next: Sort | undefined) => update({ sort: next?.by ?? null, order: next?.order ?? null, page: null });
  const shown: Sort | undefined = sort ?? (query ? undefined : { by: 'modified_dt', order: 'desc' });

  const jobs = useJobs(list);
  const counts = useJobCounts(countParams);
  const total = jobs.data?.totalCount ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const top = jobs.data?.data[0];
  const openTopMatch = useOpenTopMatch(top && paths.jobs.edit.href(top.id), !pending && !jobs.isFetching && !jobs.isPlaceholderData && jobs.data !== undefined);

  const tab = (key: JobStatus | 'all', label: string) => ({
    key,
    label,
    // null while the counts load: the tab keeps room for its count.
    count: counts.data ? counts.data[key] : counts.isError ? undefined : null,
    active: (status ?? 'all') === key,
    onSelect: () => update({ status: key === 'all' ? null : key, page: null }),
  });

  return (
    <div className="otto-stack">
      {paidMonth && (
        <FilterNotice clear="Show every month" onClear={() => update({ paid: null, page: null })}>
          Showing jobs paid in <strong>{monthName(paidMonth)}</strong>.
        </FilterNotice>
      )}
      {openBefore && (
        <FilterNotice clear="Show every job" onClear={() => update({ open: null, page: null })}>
          Showing jobs still open (scheduled or in progress) that started before <strong>{dayName(openBefore)}</strong>.
        </FilterNotice>
      )}
      <SegmentedNav label="Filter by status" items={[tab('all', 'All'), ...jobStatuses.map((s) => tab(s, jobStatusLabels[s]))]} />
      <SearchBox
        label="Search jobs"
        placeholder="Title, description, address or customer"
        value={text}
        onChange={setText}
        onKeyDown={openTopMatch}
        busy={jobs.isFetching || pending}
      />
      <ListControls
        noun="jobs"
        defaultLabel={orderWords(undefined, query)}
        choices={query ? orderChoices : orderChoices.filter((c) => !(c.sort.by === 'modified_dt' && c.sort.order === 'desc'))}
        sort={sort}
        onSortChange={setSort}
        pageSize={pageSize}
        onPageSizeChange={(size) => update({ size: size === pageSizes[0] ? null : size, page: null })}
      />
      {jobs.isError && <LoadErrorNotice title="Jobs could not be loaded" error={jobs.error} onRetry={() => void jobs.refetch()} />}
      {jobs.isPending ? (
        <p role="status">Loading jobs…</p>
      ) : jobs.isError && !jobs.data ? null : (
        <>
          <JobTable
            jobs={jobs.data?.data ?? []}
            caption={`Jobs, ${orderWords(sort, query).toLowerCase()}`}
            loading={jobs.isPlaceholderData}
            sorting={{ shown, onSort: (field) => setSort(nextSort(shown, field)) }}
            emptyState={
              total > 0 && page > 1 ? (
                <EmptyState
                  title="This page is empty"
                  description={`There are only ${formatCount(total, 'job')} here.`}
                  action={<Button onClick={() => update({ page: null })}>Go to the first page</Button>}
                />
              ) : query || status || paidMonth || openBefore ? (
                <EmptyState
                  title="No jobs match"
                  description={`Nothing ${status ? `with the status ${jobStatusLabels[status]} ` : ''}${paidMonth ? `paid in ${monthName(paidMonth)} ` : ''}${openBefore ? `still open from before ${dayName(openBefore)} ` : ''}${query ? `matches “${query}”` : 'yet'}.`}
                  action={<Button onClick={() => { setText(''); update({ q: null, status: null, paid: null, open: null, page: null }); }}>Show all jobs</Button>}
                />
              ) : (
                <EmptyState
                  title="No jobs yet"
                  description="Create a job for one of your customers to start tracking the work."
                  action={<Link className={buttonClassName({ variant: 'primary' })} to={paths.jobs.new.href()}>New job</Link>}
                />
              )
            }
          />
          {total > 0 && (
            <Pagination page={Math.min(page, pageCount)} pageCount={pageCount} onPageChange={(next) => update({ page: next })} summary={formatCount(total, 'job')} />
          )}
        </>
      )}
    </div>
  );
}

const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "March 2026" for `2026-03`. */
function monthName(month: string): string {
  const [year = 0, m = 1] = month.split('-').map(Number);
  return monthFormat.format(Date.UTC(year, m - 1, 1));
}

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "Mon, Nov 23" for `2026-11-23`. */
function dayName(day: string): string {
  const [year = 0, m = 1, d = 1] = day.split('-').map(Number);
  return dayFormat.format(Date.UTC(year, m - 1, d));
}

/** Says the list shows only some jobs (from the Overview: a month paid in, those still open from before a week), with a way out. */
function FilterNotice({ children, clear, onClear }: { children: ReactNode; clear: string; onClear: () => void }) {
  return (
    <p className="job-list__filter" role="status">
      <span>{children}</span>
      <Button size="sm" variant="ghost" onClick={onClear}>
        {clear}
      </Button>
    </p>
  );
}
