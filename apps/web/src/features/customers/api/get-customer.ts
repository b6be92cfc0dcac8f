import { customerRoutes } from '@otto/api-contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { customerKeys } from '../../../lib/query-keys';

export async function getCustomer(id: string, signal?: AbortSignal) {
  return (await callApi(customerRoutes.get, { params: { id }, ...(signal ? { signal } : {}) })).data;
}

export function customerOptions(id: string) {
  return queryOptions({
    queryKey: customerKeys.detail(id),
    queryFn: ({ signal }) => getCustomer(id, signal),
  });
}

export function useCustomer(id: string) {
  return useQuery(customerOptions(id));
}
