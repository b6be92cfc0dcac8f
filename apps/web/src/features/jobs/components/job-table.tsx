import type { Job } from '@otto/api-contract';
import { Table, type TableColumn } from '@otto/ui';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDate, formatMoney } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { JobMoveMenu } from './job-moves';
import { JobStatusBadge } from './job-status-badge';

const allColumns: TableColumn<Job>[] = [
  { key: 'title', header: 'Title', rowHeader: true, render: (j) => <Link to={paths.jobs.edit.href(j.id)}>{j.title}</Link> },
  { key: 'customer', header: 'Customer', render: (j) => <Link to={paths.customers.edit.href(j.customer_id)}>{j.customer_name}</Link> },
  { key: 'status', header: 'Status', render: (j) => <JobStatusBadge status={j.status} /> },
  {
    key: 'scheduled',
    header: 'Scheduled',
    render: (j) => (j.scheduled_start_dt === null ? <span className="otto-muted">Not scheduled</span> : formatDate(j.scheduled_start_dt)),
  },
  { key: 'price', header: 'Price', className: 'otto-numeric', render: (j) => formatMoney(j.price_cents) },
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
}

/** Jobs as a table: title, customer, status, scheduled date, price. */
export function JobTable({ jobs, caption, loading, emptyState, hideCustomer }: JobTableProps) {
  const columns = hideCustomer ? allColumns.filter((c) => c.key !== 'customer') : allColumns;
  return (
    <Table caption={caption} hideCaption columns={columns} rows={jobs} getRowKey={(j) => j.id} loading={loading} emptyState={emptyState} />
  );
}
