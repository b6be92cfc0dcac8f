import { customerRoutes, etagOf, type CustomerDetails, type CustomerDetailsInput } from '@otto/api-contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiClientError, callApi } from '../../../lib/api-client';
import { changedWhere } from '../../../lib/live/changed-where';
import { customerKeys } from '../../../lib/query-keys';

export async function getCustomerDetails(id: string, signal?: AbortSignal): Promise<CustomerDetails> {
  return (await callApi(customerRoutes.details, { params: { id }, ...(signal ? { signal } : {}) })).data;
}

/** A customer's notes and service addresses (decision 0162); `modified_dt` is 0 until first saved. */
export function customerDetailsOptions(id: string) {
  return queryOptions({
    queryKey: customerKeys.notesAndAddresses(id),
    queryFn: ({ signal }) => getCustomerDetails(id, signal),
  });
}

/** A customer's notes and service addresses; nothing is asked while `id` is empty (no customer chosen yet). */
export function useCustomerDetails(id: string) {
  return useQuery({ ...customerDetailsOptions(id), enabled: id !== '' });
}

export interface SaveCustomerDetailsVariables {
  id: string;
  input: CustomerDetailsInput;
  /** Save only over this version (`modified_dt`, 0 before the first save, sent as If-Match); any version when absent. */
  version?: number;
}

/** Replaces a customer's notes and service addresses; a version saved meanwhile elsewhere is a 412 said in words. */
export async function saveCustomerDetails({ id, input, version }: SaveCustomerDetailsVariables): Promise<CustomerDetails> {
  try {
    const headers = version !== undefined ? { headers: { 'if-match': etagOf(version) } } : {};
    return (await callApi(customerRoutes.putDetails, { params: { id }, body: input, ...headers })).data;
  } catch (error) {
    if (error instanceof ApiClientError && error.status === 412) {
      throw new ApiClientError(
        'HTTP_ERROR',
        `This customer's notes and addresses were changed ${changedWhere}, so your changes were not saved yet. Load the new version or keep editing, then save again.`,
        412,
        error.data,
      );
    }
    throw error;
  }
}

/**
 * Saves a customer's notes and service addresses: the answer is the cached version at once. A save
 * refused because they changed meanwhile (412) refetches them, so the card can say so.
 */
export function useSaveCustomerDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCustomerDetails,
    onSuccess: (details) => queryClient.setQueryData(customerKeys.notesAndAddresses(details.customer_id), details),
    onError: (error, { id }) =>
      error instanceof ApiClientError && error.status === 412 ? queryClient.invalidateQueries({ queryKey: customerKeys.notesAndAddresses(id) }) : undefined,
  });
}
