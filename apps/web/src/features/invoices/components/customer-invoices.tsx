import { limits } from '@otto/api-contract';
import { EmptyState, buttonClassName } from '@otto/ui';
import { Link } from 'react-router';
import { formatCount, formatMoney } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useInvoices } from '../api/get-invoices';
import { InvoiceTable } from './invoice-table';

/** A customer's invoices (newest first) and what they owe, with a way to start a new invoice for them. */
export function CustomerInvoices({ customerId, customerName }: { customerId: string; customerName: string }) {
  const pageSize = limits.defaultPageSize;
  const invoices = useInvoices({ customerId, limit: pageSize });
  // Every open one, for the balance due (a page holds at most maxPageSize; more is counted by the server).
  const open = useInvoices({ customerId, status: 'open', limit: limits.maxPageSize });
  const owed = open.data?.data.reduce((sum, i) => sum + i.balance_cents, 0);
  const openCount = open.data?.totalCount ?? 0;
  const total = invoices.data?.totalCount ?? 0;
  return (
    <section aria-labelledby="customer-invoices-title" className="otto-stack">
      <div className="otto-cluster otto-cluster--between">
        <h2 id="customer-invoices-title">Invoices</h2>
        <Link className={buttonClassName({ size: 'sm' })} to={paths.invoices.new.href({ customer: customerId })}>
          New invoice for {customerName}
        </Link>
      </div>
      <p className="customer-owed" aria-live="polite">
        {open.isPending ? (
          'Working out what they owe…'
        ) : open.isError ? (
          `What they owe could not be worked out: ${open.error.message}`
        ) : openCount === 0 ? (
          'They owe nothing.'
        ) : (
          <>
            Balance due: <strong>{formatMoney(owed ?? 0)}</strong> on{' '}
            <Link to={paths.invoices.list.href({ status: 'open', customer: customerId })}>{formatCount(openCount, 'open invoice')}</Link>.
          </>
        )}
      </p>
      {invoices.isPending ? (
        <p role="status">Loading invoices…</p>
      ) : invoices.isError ? (
        <p role="alert">The invoices could not be loaded: {invoices.error.message}</p>
      ) : (
        <>
          <InvoiceTable
            invoices={invoices.data.data}
            caption={`Invoices for ${customerName}`}
            hideCustomer
            loading={invoices.isPlaceholderData}
            emptyState={<EmptyState title="No invoices yet" description={`Nothing has been billed to ${customerName} so far.`} />}
          />
          {total > pageSize && (
            <p>
              <Link to={paths.invoices.list.href({ customer: customerId })}>See all {formatCount(total, 'invoice')} of {customerName}</Link>
            </p>
          )}
        </>
      )}
    </section>
  );
}
