import { customerRoutes, type Customer, type CustomerInput } from '@otto/api-contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiClientError, callApi } from '../../../lib/api-client';
import { customerKeys } from '../../../lib/query-keys';

export async function createCustomer(input: CustomerInput): Promise<Customer> {
  const { data } = await callApi(customerRoutes.create, { body: input });
  if (data === null) throw new ApiClientError('HTTP_ERROR', 'Otto did not accept these details. Check the fields and try again.', 200, null);
  return data;
}

/** Creates a customer; the customer lists are refetched (spec section 7). */
export function useCreateCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCustomer,
    onSuccess: (customer) => {
      queryClient.setQueryData(customerKeys.detail(customer.id), customer);
      return queryClient.invalidateQueries({ queryKey: customerKeys.lists() });
    },
  });
}
