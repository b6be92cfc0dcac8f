import type { Invoice } from '@otto/api-contract';
import { Table, type TableColumn } from '@otto/ui';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatMoney } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useSettings } from '../../../lib/settings';
import { formatDay } from '../invoice-words';
import { InvoiceStatusBadge } from './invoice-status-badge';

/** Names a figure in a phone's card, where there are no column headers (hidden in the table). */
const cardLabel = (text: string) => <span className="invoice-card-label">{text} </span>;

function columns(currency: string, hideCustomer: boolean): TableColumn<Invoice>[] {
  const all: TableColumn<Invoice>[] = [
    { key: 'reference', header: 'Invoice', rowHeader: true, render: (i) => <Link to={paths.invoices.view.href(i.id)}>{i.reference}</Link> },
    { key: 'customer', header: 'Customer', render: (i) => <Link to={paths.customers.edit.href(i.customer_id)}>{i.customer_name}</Link> },
    { key: 'status', header: 'Status', render: (i) => <InvoiceStatusBadge invoice={i} /> },
    { key: 'issued', header: 'Issued', render: (i) => <>{cardLabel('Issued')}{formatDay(i.issue_date)}</> },
    { key: 'due', header: 'Due', render: (i) => <>{cardLabel('Due')}{formatDay(i.due_date)}</> },
    { key: 'total', header: 'Total', className: 'otto-numeric', render: (i) => <>{cardLabel('Total')}{formatMoney(i.total_cents, i.currency || currency)}</> },
    {
      key: 'balance',
      header: 'Balance due',
      className: 'otto-numeric',
      render: (i) =>
        i.status === 'void' ? (
          <span className="otto-muted">None (void)</span>
        ) : (
          <>
            {cardLabel('Balance due')}
            {formatMoney(i.balance_cents, i.currency || currency)}
          </>
        ),
    },
  ];
  return hideCustomer ? all.filter((c) => c.key !== 'customer') : all;
}

export interface InvoiceTableProps {
  invoices: readonly Invoice[];
  caption: string;
  loading: boolean;
  emptyState: ReactNode;
  /** Leave out the customer column (on a customer's own screen). */
  hideCustomer?: boolean;
}

/** Invoices as a table (cards on phones): reference, customer, status, dates, total and balance. */
export function InvoiceTable({ invoices, caption, loading, emptyState, hideCustomer = false }: InvoiceTableProps) {
  const { currency } = useSettings();
  return (
    <Table
      caption={caption}
      hideCaption
      cards
      columns={columns(currency, hideCustomer)}
      rows={invoices}
      getRowKey={(i) => i.id}
      loading={loading}
      emptyState={emptyState}
    />
  );
}
