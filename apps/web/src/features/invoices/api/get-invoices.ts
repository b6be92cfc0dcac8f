import { invoiceRoutes, type Invoice, type InvoiceListParams } from '@otto/api-contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { invoiceKeys } from '../../../lib/query-keys';

export function invoicesOptions(params: InvoiceListParams) {
  return queryOptions({
    queryKey: invoiceKeys.list(params),
    queryFn: ({ signal }) => callApi(invoiceRoutes.list, { filter: params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** One page of invoices and the total. */
export function useInvoices(params: InvoiceListParams, options: { enabled?: boolean } = {}) {
  return useQuery({ ...invoicesOptions(params), enabled: options.enabled ?? true });
}

/**
 * The invoice of a job that is on one (open or paid; a void one only when there is no other), or
 * null: the job's screen links to it.
 */
export function useJobInvoice(jobId: string, enabled: boolean) {
  return useQuery({
    queryKey: invoiceKeys.ofJob(jobId),
    queryFn: async ({ signal }): Promise<Invoice | null> => {
      const { data } = await callApi(invoiceRoutes.list, { filter: { jobId }, signal });
      return data.find((i) => i.status !== 'void') ?? data[0] ?? null;
    },
    enabled,
  });
}
