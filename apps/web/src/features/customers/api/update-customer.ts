import { customerRoutes, etagOf, type Customer, type CustomerInput } from '@otto/api-contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiClientError, callApi } from '../../../lib/api-client';
import { customerKeys, jobKeys } from '../../../lib/query-keys';
import { changedWhere } from '../../../lib/live/changed-where';

export interface UpdateCustomerVariables {
  id: string;
  input: CustomerInput;
  /** Save only over this version (`modified_dt`, sent as If-Match); any version when absent. */
  version?: number;
}

export async function updateCustomer({ id, input, version }: UpdateCustomerVariables): Promise<Customer> {
  let data: Customer | null;
  try {
    ({ data } = await callApi(customerRoutes.update, {
      params: { id },
      body: input,
      ...(version !== undefined ? { headers: { 'if-match': etagOf(version) } } : {}),
    }));
  } catch (error) {
    if (error instanceof ApiClientError && error.status === 412) {
      throw new ApiClientError(
        'HTTP_ERROR',
        `This customer was changed ${changedWhere}, so your changes were not saved yet. Load the new version or keep editing, then save again.`,
        412,
        error.data,
      );
    }
    throw error;
  }
  if (data === null) throw new ApiClientError('HTTP_ERROR', 'Otto did not accept these details. Check the fields and try again.', 200, null);
  return data;
}

/**
 * Updates a customer; the lists and that customer's entry are refetched (spec section 7), and so
 * are jobs, which show the customer's name. A save refused because the customer changed meanwhile
 * (412) refetches the customer, so the form can say so.
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
    onError: (error, { id }) =>
      error instanceof ApiClientError && error.status === 412
        ? queryClient.invalidateQueries({ queryKey: customerKeys.detail(id) })
        : undefined,
  });
}
