import { customerRoutes } from '@otto/api-contract';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { customerKeys } from '../../../lib/query-keys';

/** The name of the customer a new job is for (from `?customerId=`); null when there is none. */
export function useCustomerName(id: string) {
  return useQuery({
    queryKey: customerKeys.detail(id),
    queryFn: async ({ signal }) => (await callApi(customerRoutes.get, { params: { id }, signal })).data,
    enabled: id !== '',
    select: (customer) => customer.full_name,
    retry: false,
  });
}
