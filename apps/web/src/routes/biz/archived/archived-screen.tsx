import type { Customer, Job } from '@otto/api-contract';
import { Button, EmptyState, PageHeader, Pagination, Table, useToast, type TableColumn } from '@otto/ui';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  archivedPageSize,
  useArchivedCustomers,
  useArchivedJobs,
  useDeleteForGood,
  useSetArchived,
} from '../../../features/archive/archive-api';
import { DeleteForGoodDialog } from '../../../features/archive/delete-for-good-dialog';
import { JobStatusBadge } from '../../../features/jobs/components/job-status-badge';
import { ApiClientError } from '../../../lib/api-client';
import { formatCount, formatDateTime } from '../../../lib/format';
import { LoadErrorNotice } from '../../../lib/load-error-notice';
import { paths } from '../../../lib/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';

type Target = { kind: 'customer'; record: Customer } | { kind: 'job'; record: Job };

/** Archived customers and jobs: restore them, or delete them for good after a confirmation. */
export default function ArchivedScreen() {
  useDocumentTitle('Archived');
  const [customerPage, setCustomerPage] = useState(1);
  const [jobPage, setJobPage] = useState(1);
  const customers = useArchivedCustomers((customerPage - 1) * archivedPageSize);
  const jobs = useArchivedJobs((jobPage - 1) * archivedPageSize);
  const restoreCustomer = useSetArchived('customer');
  const restoreJob = useSetArchived('job');
  const remove = useDeleteForGood();
  const toast = useToast();
  const [deleting, setDeleting] = useState<Target>();

  const fail = (error: unknown, what: string) =>
    toast.show(error instanceof ApiClientError ? error.message : what, { tone: 'error', kind: 'archive' });

  const restore = (target: Target) => {
    const name = target.kind === 'customer' ? target.record.full_name : `Job “${target.record.title}”`;
    const mutation = target.kind === 'customer' ? restoreCustomer : restoreJob;
    void mutation.mutateAsync({ id: target.record.id, archive: false }).then(
      () =>
        toast.show(`${name} was restored.`, {
          tone: 'success',
          kind: 'archive',
          durationMs: 8000,
          action: {
            label: 'Undo',
            onAction: () => void mutation.mutateAsync({ id: target.record.id, archive: true }).catch((e: unknown) => fail(e, 'It could not be archived again.')),
          },
        }),
      (error: unknown) => fail(error, `${name} could not be restored.`),
    );
  };

  const actions = (target: Target) => (
    <div className="errand-actions">
      {/* The record's name follows the visible words, out of sight: the accessible name starts with what is shown (WCAG 2.5.3). */}
      <Button size="sm" onClick={() => restore(target)}>
        Restore<span className="otto-visually-hidden"> {target.kind === 'customer' ? target.record.full_name : target.record.title}</span>
      </Button>
      <Button size="sm" variant="danger" onClick={() => setDeleting(target)}>
        Delete for good…<span className="otto-visually-hidden"> {target.kind === 'customer' ? target.record.full_name : target.record.title}</span>
      </Button>
    </div>
  );

  const customerColumns: TableColumn<Customer>[] = [
    { key: 'name', header: 'Name', rowHeader: true, render: (c) => <Link to={paths.customers.edit.href(c.id)}>{c.full_name}</Link> },
    { key: 'email', header: 'Email', render: (c) => c.email },
    { key: 'phone', header: 'Phone', render: (c) => c.phone },
    { key: 'archived', header: 'Archived', render: (c) => formatDateTime(c.archived_dt ?? c.modified_dt) },
    { key: 'actions', header: 'Actions', render: (c) => actions({ kind: 'customer', record: c }) },
  ];
  const jobColumns: TableColumn<Job>[] = [
    { key: 'title', header: 'Title', rowHeader: true, render: (j) => <Link to={paths.jobs.edit.href(j.id)}>{j.title}</Link> },
    { key: 'customer', header: 'Customer', render: (j) => j.customer_name },
    { key: 'status', header: 'Status', render: (j) => <JobStatusBadge status={j.status} /> },
    { key: 'archived', header: 'Archived', render: (j) => formatDateTime(j.archived_dt ?? j.modified_dt) },
    { key: 'actions', header: 'Actions', render: (j) => actions({ kind: 'job', record: j }) },
  ];

  const customerTotal = customers.data?.totalCount ?? 0;
  const jobTotal = jobs.data?.totalCount ?? 0;
  return (
    <div className="otto-stack otto-stack--lg">
      <PageHeader title="Archived" description="Customers and jobs taken out of lists and search. Restore them, or delete them for good." />
      <section aria-labelledby="archived-customers" className="otto-stack">
        <h2 id="archived-customers">Customers</h2>
        {customers.isError && <LoadErrorNotice title="Archived customers could not be loaded" error={customers.error} onRetry={() => void customers.refetch()} />}
        {customers.isPending ? (
          <p role="status">Loading archived customers…</p>
        ) : customerTotal === 0 && !customers.isError ? (
          // Outside the table: a wide table would scroll its empty message off a phone's screen.
          <EmptyState title="No archived customers" description="Customers you archive appear here, ready to restore." />
        ) : (
          <>
            <Table
              caption="Archived customers, most recently archived first"
              hideCaption
              cards
              columns={customerColumns}
              rows={customers.data?.data ?? []}
              getRowKey={(c) => c.id}
              loading={customers.isPlaceholderData}
              emptyState={<EmptyState title="No archived customers" description="Customers you archive appear here, ready to restore." />}
            />
            {customerTotal > archivedPageSize && (
              <Pagination
                page={customerPage}
                pageCount={Math.ceil(customerTotal / archivedPageSize)}
                onPageChange={setCustomerPage}
                summary={formatCount(customerTotal, 'archived customer')}
              />
            )}
          </>
        )}
      </section>
      <section aria-labelledby="archived-jobs" className="otto-stack">
        <h2 id="archived-jobs">Jobs</h2>
        {jobs.isError && <LoadErrorNotice title="Archived jobs could not be loaded" error={jobs.error} onRetry={() => void jobs.refetch()} />}
        {jobs.isPending ? (
          <p role="status">Loading archived jobs…</p>
        ) : jobTotal === 0 && !jobs.isError ? (
          <EmptyState title="No archived jobs" description="Jobs you archive appear here, ready to restore." />
        ) : (
          <>
            <Table
              caption="Archived jobs, most recently archived first"
              hideCaption
              cards
              columns={jobColumns}
              rows={jobs.data?.data ?? []}
              getRowKey={(j) => j.id}
              loading={jobs.isPlaceholderData}
              emptyState={<EmptyState title="No archived jobs" description="Jobs you archive appear here, ready to restore." />}
            />
            {jobTotal > archivedPageSize && (
              <Pagination page={jobPage} pageCount={Math.ceil(jobTotal / archivedPageSize)} onPageChange={setJobPage} summary={formatCount(jobTotal, 'archived job')} />
            )}
          </>
        )}
      </section>
      {deleting && (
        <DeleteForGoodDialog
          id={deleting.record.id}
          kind={deleting.kind}
          name={deleting.kind === 'customer' ? deleting.record.full_name : `job “${deleting.record.title}”`}
          deleting={remove.isPending}
          onCancel={() => setDeleting(undefined)}
          onConfirm={async () => {
            const target = deleting;
            const name = target.kind === 'customer' ? target.record.full_name : `Job “${target.record.title}”`;
            try {
              await remove.mutateAsync({ kind: target.kind, id: target.record.id, modified: target.record.modified_dt });
              toast.show(`${name} was deleted for good.`, { tone: 'success', kind: 'archive' });
            } catch (error) {
              fail(error, `${name} could not be deleted.`);
            }
            setDeleting(undefined);
          }}
        />
      )}
    </div>
  );
}
