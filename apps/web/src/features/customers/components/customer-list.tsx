import type { Customer, CustomerSortField } from '@otto/api-contract';
import { Button, EmptyState, Pagination, SearchBox, Table, buttonClassName, type TableColumn } from '@otto/ui';
import { useCallback, useEffect } from 'react';
import { Link } from 'react-router';
import { formatCount, formatDate, formatDateTime } from '../../../lib/format';
import { ListControls, type OrderChoice } from '../../../lib/list-controls';
import { columnDirection, nextSort, pageSizes, type ListSort } from '../../../lib/list-order';
import { paths } from '../../../lib/paths';
import { LoadErrorNotice } from '../../../lib/load-error-notice';
import { useListSearchParams } from '../../../lib/use-list-search-params';
import { useOpenTopMatch } from '../../../lib/use-open-top-match';
import { useSearchText } from '../../../lib/use-search-text';
import { keepFirstScreenSoon } from '../../../backend/kept-screen';
import { customerListRequest, customersOptions, useCustomers } from '../api/get-customers';

type Sort = ListSort<CustomerSortField>;

/** A `tel:` link that dials: digits (and a leading +) only, an extension (x123) after a pause. */
function telHref(phone: string): string {
  const [number = '', extension] = phone.split(/x|ext\.?/i);
  const digits = number.replace(/[^\d+]/g, '');
  const ext = extension?.replace(/\D/g, '');
  return `tel:${digits}${ext ? `,${ext}` : ''}`;
}

const orderChoices: OrderChoice<CustomerSortField>[] = [
  { sort: { by: 'full_name', order: 'asc' }, label: 'Name, A to Z' },
  { sort: { by: 'full_name', order: 'desc' }, label: 'Name, Z to A' },
  { sort: { by: 'created_dt', order: 'desc' }, label: 'Newest customers first' },
  { sort: { by: 'created_dt', order: 'asc' }, label: 'Oldest customers first' },
  { sort: { by: 'modified_dt', order: 'desc' }, label: 'Most recently changed first' },
  { sort: { by: 'modified_dt', order: 'asc' }, label: 'Least recently changed first' },
];

/** The order in words, for the table's caption and the "Order" select's default. */
function orderWords(sort: Sort | undefined, query: string): string {
  if (sort) return orderChoices.find((c) => c.sort.by === sort.by && c.sort.order === sort.order)?.label ?? '';
  return query ? 'Best matches first' : 'Most recently changed first';
}

function customerColumns(shown: Sort | undefined, onSort: (field: CustomerSortField) => void): TableColumn<Customer>[] {
  const sortable = (field: CustomerSortField) => ({ direction: columnDirection(shown, field), onSort: () => onSort(field) });
  return [
    {
      key: 'name',
      header: 'Name',
      rowHeader: true,
      sort: sortable('full_name'),
      render: (c) => <Link to={paths.customers.edit.href(c.id)}>{c.full_name}</Link>,
    },
    { key: 'email', header: 'Email', render: (c) => (c.email ? <a href={`mailto:${c.email}`}>{c.email}</a> : <span className="otto-muted">No email</span>) },
    { key: 'phone', header: 'Phone', render: (c) => <a href={telHref(c.phone)}>{c.phone}</a> },
    { key: 'created', header: 'Customer since', hideInCard: true, sort: sortable('created_dt'), render: (c) => formatDate(c.created_dt) },
    { key: 'modified', header: 'Last modified', hideInCard: true, sort: sortable('modified_dt'), render: (c) => formatDateTime(c.modified_dt) },
  ];
}

/** Customers with search as you type and paging; the search text and page live in the URL. */
export function CustomerList() {
  const { query, page, searchParams, update } = useListSearchParams();
  const setQuery = useCallback((q: string, options: { replace: boolean }) => update({ q, page: null }, options), [update]);
  const { text, setText, pending } = useSearchText(query, setQuery);
  const { sort, pageSize, params } = customerListRequest(searchParams);
  const setSort = (next: Sort | undefined) => update({ sort: next?.by ?? null, order: next?.order ?? null, page: null });
  // Without search text and sortBy the spec's order is the most recently modified first.
  const shown: Sort | undefined = sort ?? (query ? undefined : { by: 'modified_dt', order: 'desc' });
  const columns = customerColumns(shown, (field) => setSort(nextSort(shown, field)));

  const result = useCustomers(params);
  const total = result.data?.totalCount ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const rows = result.data?.data ?? [];
  // Drawn from a fresh answer: kept for the next visit to show at once, when it is the list as it
  // opens (keepFirstScreen checks the URL; decision 0009).
  const stamp = result.data?.stamp;
  const drawn = !result.isFetching && !result.isPlaceholderData;
  const answer = result.data;
  const keyText = JSON.stringify(customersOptions(params).queryKey);
  useEffect(
    () => (drawn && stamp && answer ? keepFirstScreenSoon(stamp, { queryKey: JSON.parse(keyText) as unknown[], result: answer }) : undefined),
    [drawn, stamp, answer, keyText],
  );
  const openTopMatch = useOpenTopMatch(rows[0] && paths.customers.edit.href(rows[0].id), drawn && !pending && result.data !== undefined);

  return (
    <div className="otto-stack">
      <SearchBox
        label="Search customers"
        placeholder="Name, email or phone"
        value={text}
        onChange={setText}
        onKeyDown={openTopMatch}
        busy={result.isFetching || pending}
      />
      <ListControls
        noun="customers"
        defaultLabel={query ? 'Best matches first' : 'Most recently changed first'}
        choices={query ? orderChoices : orderChoices.filter((c) => !(c.sort.by === 'modified_dt' && c.sort.order === 'desc'))}
        sort={sort}
        onSortChange={setSort}
        pageSize={pageSize}
        onPageSizeChange={(size) => update({ size: size === pageSizes[0] ? null : size, page: null })}
      />
      {result.isError && (
        <LoadErrorNotice title="Customers could not be loaded" error={result.error} onRetry={() => void result.refetch()} />
      )}
      {result.isPending ? (
        <p role="status" data-loading="">
          Loading customers…
        </p>
      ) : result.isError && !result.data ? null : (
        <>
          <Table
            caption={`${query ? `Customers matching “${query}”` : 'Customers'}, ${orderWords(sort, query).toLowerCase()}`}
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
