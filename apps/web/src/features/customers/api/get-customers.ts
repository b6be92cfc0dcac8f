import { customerRoutes, type ListParams } from '@otto/api-contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { customerKeys } from '../../../lib/query-keys';

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

/** One page of customers and the total, for the list screen. */
export function useCustomers(params: ListParams) {
  return useQuery(customersOptions(params));
}
