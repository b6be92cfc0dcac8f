import { limits, type Customer } from '@otto/api-contract';
import { Button, EmptyState, Pagination, SearchBox, Table, buttonClassName, type TableColumn } from '@otto/ui';
import { useCallback } from 'react';
import { Link } from 'react-router';
import { formatCount, formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { LoadErrorNotice } from '../../../lib/load-error-notice';
import { useListSearchParams } from '../../../lib/use-list-search-params';
import { useSearchText } from '../../../lib/use-search-text';
import { useCustomers } from '../api/get-customers';

const pageSize = limits.defaultPageSize;

/** A `tel:` link that dials: digits (and a leading +) only, an extension (x123) after a pause. */
function telHref(phone: string): string {
  const [number = '', extension] = phone.split(/x|ext\.?/i);
  const digits = number.replace(/[^\d+]/g, '');
  const ext = extension?.replace(/\D/g, '');
  return `tel:${digits}${ext ? `,${ext}` : ''}`;
}

const columns: TableColumn<Customer>[] = [
  {
    key: 'name',
    header: 'Name',
    rowHeader: true,
    render: (c) => <Link to={paths.customers.edit.href(c.id)}>{c.full_name}</Link>,
  },
  { key: 'email', header: 'Email', render: (c) => <a href={`mailto:${c.email}`}>{c.email}</a> },
  { key: 'phone', header: 'Phone', render: (c) => <a href={telHref(c.phone)}>{c.phone}</a> },
  { key: 'modified', header: 'Last modified', hideInCard: true, render: (c) => formatDateTime(c.modified_dt) },
];

/** Customers with search as you type and paging; the search text and page live in the URL. */
export function CustomerList() {
  const { query, page, update } = useListSearchParams();
  const setQuery = useCallback((q: string, options: { replace: boolean }) => update({ q, page: null }, options), [update]);
  const { text, setText, pending } = useSearchText(query, setQuery);

  const params = { ...(query ? { queryText: query } : {}), limit: pageSize, offset: (page - 1) * pageSize };
  const result = useCustomers(params);
  const total = result.data?.totalCount ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const rows = result.data?.data ?? [];

  return (
    <div className="otto-stack">
      <SearchBox
        label="Search customers"
        placeholder="Name, email or phone"
        value={text}
        onChange={setText}
        busy={result.isFetching || pending}
      />
      {result.isError && (
        <LoadErrorNotice title="Customers could not be loaded" error={result.error} onRetry={() => void result.refetch()} />
      )}
      {result.isPending ? (
        <p role="status">Loading customers…</p>
      ) : result.isError && !result.data ? null : (
        <>
          <Table
            caption={query ? `Customers matching “${query}”` : 'Customers, most recently changed first'}
            hideCaption
            columns={columns}
            rows={rows}
            getRowKey={(c) => c.id}
            cards
            loading={result.isPlaceholderData}
            emptyState={<ListEmptyState query={query} total={total} page={page} onFirstPage={() => update({ page: null })} onClear={() => setText('')} />}
          />
          {total > 0 && (
            <Pagination
              page={Math.min(page, pageCount)}
              pageCount={pageCount}
              onPageChange={(next) => update({ page: next })}
              summary={formatCount(total, 'customer')}
            />
          )}
        </>
      )}
    </div>
  );
}

function ListEmptyState(props: { query: string; total: number; page: number; onFirstPage: () => void; onClear: () => void }) {
  if (props.total > 0 && props.page > 1) {
    return (
      <EmptyState
        title="This page is empty"
        description={`There are only ${formatCount(props.total, 'customer')}.`}
        action={<Button onClick={props.onFirstPage}>Go to the first page</Button>}
      />
    );
  }
  if (props.query) {
    return (
      <EmptyState
        title={`No customers match “${props.query}”`}
        description="Check the spelling, or search by part of a name, email or phone number."
        action={<Button onClick={props.onClear}>Clear search</Button>}
      />
    );
  }
  return (
    <EmptyState
      title="No customers yet"
      description="Add your first customer to start tracking their jobs."
      action={
        <Link className={buttonClassName({ variant: 'primary' })} to={paths.customers.new.href()}>
          New customer
        </Link>
      }
    />
  );
}
