import type { Job, JobSortField } from '@otto/api-contract';
import { Table, type TableColumn } from '@otto/ui';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { columnDirection, type ListSort } from '../../../lib/list-order';
import { useSettings } from '../../../lib/settings';
import { paths } from '../../../lib/paths';
import { JobMoveMenu } from './job-moves';
import { JobStatusBadge } from './job-status-badge';

const allColumns: (TableColumn<Job> & { sortBy?: JobSortField })[] = [
  { key: 'title', header: 'Title', rowHeader: true, sortBy: 'title', render: (j) => <Link to={paths.jobs.edit.href(j.id)}>{j.title}</Link> },
  { key: 'customer', header: 'Customer', render: (j) => <Link to={paths.customers.edit.href(j.customer_id)}>{j.customer_name}</Link> },
  { key: 'status', header: 'Status', sortBy: 'status', render: (j) => <JobStatusBadge status={j.status} /> },
  {
    key: 'scheduled',
    header: 'Scheduled',
    sortBy: 'scheduled_start_dt',
    render: (j) => (j.scheduled_start_dt === null ? <span className="otto-muted">Not scheduled</span> : formatDateTime(j.scheduled_start_dt)),
  },
  { key: 'price', header: 'Price', sortBy: 'price_cents', className: 'otto-numeric', render: (j) => formatMoney(j.price_cents) },
  // One-click status moves from the row (decision 0092).
  { key: 'move', header: 'Actions', render: (j) => <JobMoveMenu job={j} /> },
];

export interface JobTableProps {
  jobs: readonly Job[];
  caption: string;
  loading: boolean;
  emptyState: ReactNode;
  /** Leave out the customer column (on a customer's own screen). */
  hideCustomer?: boolean;
  /** Sortable headers: the order the list shows, and what a header click asks for. */
  sorting?: { shown: ListSort<JobSortField> | undefined; onSort: (field: JobSortField) => void };
}

/** Jobs as a table: title, customer, status, scheduled date, price. */
export function JobTable({ jobs, caption, loading, emptyState, hideCustomer, sorting }: JobTableProps) {
  // Prices in the currency of the Settings screen; a change there shows here at once.
  const { currency } = useSettings();
  const columns = (hideCustomer ? allColumns.filter((c) => c.key !== 'customer') : allColumns).map(({ sortBy, ...column }) => {
    const priced = column.key === 'price' ? { ...column, render: (j: Job) => formatMoney(j.price_cents, currency) } : column;
    return sorting && sortBy ? { ...priced, sort: { direction: columnDirection(sorting.shown, sortBy), onSort: () => sorting.onSort(sortBy) } } : priced;
  });
  return (
    <Table caption={caption} hideCaption cards columns={columns} rows={jobs} getRowKey={(j) => j.id} loading={loading} emptyState={emptyState} />
  );
}
