import { invoiceRoutes } from '@otto/api-contract';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invoiceKeys } from '../../../lib/query-keys';

export function useInvoice(id: string) {
  return useQuery({
    queryKey: invoiceKeys.detail(id),
    queryFn: async ({ signal }) => (await callApi(invoiceRoutes.get, { params: { id }, signal })).data,
    enabled: id !== '',
  });
}
