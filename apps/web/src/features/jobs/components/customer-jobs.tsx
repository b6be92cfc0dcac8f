import { limits } from '@otto/api-contract';
import { EmptyState, Pagination, buttonClassName } from '@otto/ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { shortcutHint } from '../../../lib/shortcuts/shortcut-list';
import { useJobs } from '../api/get-jobs';
import { JobTable } from './job-table';

/** A customer's jobs, newest first, with a way to start a new one for them. */
export function CustomerJobs({ customerId, customerName }: { customerId: string; customerName: string }) {
  const [page, setPage] = useState(1);
  const pageSize = limits.defaultPageSize;
  const jobs = useJobs({ customerId, limit: pageSize, offset: (page - 1) * pageSize });
  const total = jobs.data?.totalCount ?? 0;
  const newJob = (
    <Link className={buttonClassName({ variant: 'primary', size: 'sm' })} to={paths.jobs.new.href(customerId)} {...shortcutHint(['n'])}>
      New job for {customerName}
    </Link>
  );
  return (
    <section aria-labelledby="customer-jobs-title" className="otto-stack">
      <div className="otto-cluster otto-cluster--between">
        <h2 id="customer-jobs-title">Jobs</h2>
        {newJob}
      </div>
      {jobs.isPending ? (
        <p role="status">Loading jobs…</p>
      ) : jobs.isError ? (
        <p role="alert">The jobs could not be loaded: {jobs.error.message}</p>
      ) : (
        <>
          <JobTable
            jobs={jobs.data.data}
            caption={`Jobs for ${customerName}`}
            hideCustomer
            loading={jobs.isPlaceholderData}
            emptyState={<EmptyState title="No jobs yet" description={`Nothing has been quoted or done for ${customerName} so far.`} />}
          />
          {total > pageSize && (
            <Pagination label="Job pages" page={page} pageCount={Math.ceil(total / pageSize)} onPageChange={setPage} summary={formatCount(total, 'job')} />
          )}
        </>
      )}
    </section>
  );
}
