import { customerRoutes, customerSortFields, type ListParams } from '@otto/api-contract';
import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { readListOrder, sortFilter } from '../../../lib/list-order';
import { customerKeys } from '../../../lib/query-keys';
import { readListPlace } from '../../../lib/use-list-search-params';

export function getCustomers(params: ListParams, signal?: AbortSignal) {
  return callApi(customerRoutes.list, { filter: params, ...(signal ? { signal } : {}) });
}

export function customersOptions(params: ListParams) {
  return queryOptions({
    queryKey: customerKeys.list(params),
    queryFn: ({ signal }) => getCustomers(params, signal),
    placeholderData: keepPreviousData,
  });
}

/**
 * The list request the customer list makes for its URL: search text, order, page size and page.
 * @example
 * customerListParams(new URLSearchParams('q=ann&page=2')); // { queryText: 'ann', limit: 10, offset: 10 }
 */
export function customerListParams(searchParams: URLSearchParams): ListParams {
  const { query, page } = readListPlace(searchParams);
  const { sort, pageSize } = readListOrder(searchParams, customerSortFields);
  return { ...(query ? { queryText: query } : {}), ...sortFilter(sort), limit: pageSize, offset: (page - 1) * pageSize };
}

/** Starts the customer list's request for `url` (the list screen's first data). */
export function prefetchCustomerList(queryClient: QueryClient, url: URL): void {
  void queryClient.prefetchQuery(customersOptions(customerListParams(url.searchParams)));
}

/** One page of customers and the total, for the list screen. */
export function useCustomers(params: ListParams) {
  return useQuery(customersOptions(params));
}
