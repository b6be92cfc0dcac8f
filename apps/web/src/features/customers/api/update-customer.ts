import { customerRoutes, type Customer, type CustomerInput } from '@otto/api-contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiClientError, callApi } from '../../../lib/api-client';
import { customerKeys, jobKeys } from '../../../lib/query-keys';

export async function updateCustomer({ id, input }: { id: string; input: CustomerInput }): Promise<Customer> {
  const { data } = await callApi(customerRoutes.update, { params: { id }, body: input });
  if (data === null) throw new ApiClientError('HTTP_ERROR', 'Otto did not accept these details. Check the fields and try again.', 200, null);
  return data;
}

/**
 * Updates a customer; the lists and that customer's entry are refetched (spec section 7), and so
 * are jobs, which show the customer's name.
 */
export function useUpdateCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCustomer,
    onSuccess: (customer) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: customerKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: customerKeys.detail(customer.id) }),
        queryClient.invalidateQueries({ queryKey: jobKeys.all }),
      ]),
  });
}
