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
 * What the customer list's URL asks for (search text, order, page size and page): its order and
 * page size as the list shows them, and the list request they make.
 * @example
 * customerListRequest(new URLSearchParams('q=ann&page=2')).params; // { queryText: 'ann', limit: 10, offset: 10 }
 */
export function customerListRequest(searchParams: URLSearchParams) {
  const { query, page } = readListPlace(searchParams);
  const { sort, pageSize } = readListOrder(searchParams, customerSortFields);
  const params: ListParams = { ...(query ? { queryText: query } : {}), ...sortFilter(sort), limit: pageSize, offset: (page - 1) * pageSize };
  return { sort, pageSize, params };
}

/** Starts the customer list's request for `url` (the list screen's first data). */
export function prefetchCustomerList(queryClient: QueryClient, url: URL): void {
  void queryClient.prefetchQuery(customersOptions(customerListRequest(url.searchParams).params));
}

/** One page of customers and the total, for the list screen. */
export function useCustomers(params: ListParams) {
  return useQuery(customersOptions(params));
}
