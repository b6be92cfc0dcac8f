import { Button, EmptyState, Pagination, SegmentedNav, SelectField, buttonClassName } from '@otto/ui';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatCount } from '../../../lib/format';
import { pageSizes } from '../../../lib/list-order';
import { LoadErrorNotice } from '../../../lib/load-error-notice';
import { paths } from '../../../lib/paths';
import { useListSearchParams } from '../../../lib/use-list-search-params';
import { useCustomerName } from '../../jobs/api/use-customer-name';
import { useInvoices } from '../api/get-invoices';
import { invoiceListRequest, invoiceTabs, type InvoiceTab } from '../api/invoice-list-params';
import { invoiceAgeLabels, invoiceStateLabels } from '../invoice-words';
import { InvoiceTable } from './invoice-table';

/** Every invoice, newest first, with status tabs, an age and a customer filter (from the Overview and a customer's screen), and paging, all kept in the URL. */
export function InvoiceList() {
  const { page, searchParams, update } = useListSearchParams();
  const { status, age, customerId, pageSize, list } = invoiceListRequest(searchParams);
  const invoices = useInvoices(list);
  const customer = useCustomerName(customerId ?? '');
  const total = invoices.data?.totalCount ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));

  const tab = (key: InvoiceTab | 'all', label: string) => ({
    key,
    label,
    active: (status ?? 'all') === key,
    onSelect: () => update({ status: key === 'all' ? null : key, page: null }),
  });
  const filtered = Boolean(status || age || customerId);
  const words = [
    status ? `with the status ${invoiceStateLabels[status]}` : '',
    age ? `issued ${invoiceAgeLabels[age]} ago and still open` : '',
    customerId ? `for ${customer.data ?? 'this customer'}` : '',
  ]
    .filter(Boolean)
    .join(', ');

  return (
    <div className="otto-stack">
      {age && (
        <FilterNotice clear="Show every age" onClear={() => update({ age: null, page: null })}>
          Showing open invoices issued <strong>{invoiceAgeLabels[age]}</strong> ago.
        </FilterNotice>
      )}
      {customerId && (
        <FilterNotice clear="Show every customer" onClear={() => update({ customer: null, page: null })}>
          Showing the invoices of{' '}
          <strong>
            <Link to={paths.customers.edit.href(customerId)}>{customer.data ?? `customer ${customerId}`}</Link>
          </strong>
          .
        </FilterNotice>
      )}
      <SegmentedNav label="Filter by status" items={[...invoiceTabs.map((s) => tab(s, invoiceStateLabels[s])), tab('all', 'All')]} />
      <div className="list-controls">
        <SelectField
          label="Invoices per page"
          name="size"
          className="list-controls__size"
          value={String(pageSize)}
          onChange={(event) => update({ size: Number(event.target.value) === pageSizes[0] ? null : event.target.value, page: null })}
          options={pageSizes.map((n) => ({ value: String(n), label: String(n) }))}
        />
      </div>
      {invoices.isError && <LoadErrorNotice title="Invoices could not be loaded" error={invoices.error} onRetry={() => void invoices.refetch()} />}
      {invoices.isPending ? (
        <p role="status">Loading invoices…</p>
      ) : invoices.isError && !invoices.data ? null : (
        <>
          <InvoiceTable
            invoices={invoices.data?.data ?? []}
            caption="Invoices, newest first"
            loading={invoices.isPlaceholderData}
            emptyState={
              total > 0 && page > 1 ? (
                <EmptyState
                  title="This page is empty"
                  description={`There are only ${formatCount(total, 'invoice')} here.`}
                  action={<Button onClick={() => update({ page: null })}>Go to the first page</Button>}
                />
              ) : filtered ? (
                <EmptyState
                  title="No invoices match"
                  description={`There is no invoice ${words}.`}
                  action={<Button onClick={() => update({ status: null, age: null, customer: null, page: null })}>Show all invoices</Button>}
                />
              ) : (
                <EmptyState
                  title="No invoices yet"
                  description="Invoice a completed job from its screen, or start a new invoice for a customer."
                  action={
                    <Link className={buttonClassName({ variant: 'primary' })} to={paths.jobs.list.href({ status: 'completed' })}>
                      Show completed jobs
                    </Link>
                  }
                />
              )
            }
          />
          {total > 0 && (
            <Pagination page={Math.min(page, pageCount)} pageCount={pageCount} onPageChange={(next) => update({ page: next })} summary={formatCount(total, 'invoice')} />
          )}
        </>
      )}
    </div>
  );
}

/** Says the list shows only some invoices, with a way out. */
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
