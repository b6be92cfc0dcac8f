import { etagOf, invoiceRoutes, type Invoice, type InvoiceInput, type InvoiceUpdate, type PaymentInput } from '@otto/api-contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiClientError, callApi } from '../../../lib/api-client';
import { changedWhere } from '../../../lib/live/changed-where';
import { invoiceKeys, jobKeys, reportKeys } from '../../../lib/query-keys';
import { getSettings } from '../../../lib/settings';

/**
 * After any write: the invoice as answered, then the invoice lists, the jobs (their status follows
 * the invoice) and the Overview refetched.
 */
function refresh(queryClient: QueryClient, invoice: Invoice) {
  queryClient.setQueryData(invoiceKeys.detail(invoice.id), invoice);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: invoiceKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: jobKeys.all }),
    queryClient.invalidateQueries({ queryKey: reportKeys.all }),
  ]);
}

/** A refusal because the invoice changed meanwhile (412), in words, and the invoice refetched. */
function changedMeanwhile(queryClient: QueryClient, id: string, error: unknown, what: string): unknown {
  if (error instanceof ApiClientError && error.status === 412) {
    void queryClient.invalidateQueries({ queryKey: invoiceKeys.detail(id) });
    return new ApiClientError('HTTP_ERROR', `This invoice was changed ${changedWhere}, so ${what}. Look at it again, then try again.`, 412, error.data);
  }
  return error;
}

/** Issues an invoice. */
export function useCreateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    // Issued in the business's currency as this browser shows it: the invoice keeps it (decision 0161).
    mutationFn: async (input: InvoiceInput) => (await callApi(invoiceRoutes.create, { body: { ...input, currency: input.currency || getSettings().currency } })).data,
    onSuccess: (invoice) => refresh(queryClient, invoice),
  });
}

/** Changes an open invoice with no payments, over the version shown (If-Match). */
export function useUpdateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, fields, version }: { id: string; fields: InvoiceUpdate; version: number }): Promise<Invoice> => {
      try {
        return (await callApi(invoiceRoutes.update, { params: { id }, body: fields, headers: { 'if-match': etagOf(version) } })).data;
      } catch (error) {
        throw changedMeanwhile(queryClient, id, error, 'your changes were not saved yet');
      }
    },
    onSuccess: (invoice) => refresh(queryClient, invoice),
  });
}

/** Voids an invoice with no payments (its jobs go back to completed). */
export function useVoidInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (invoice: Invoice): Promise<Invoice> => {
      try {
        return (await callApi(invoiceRoutes.void, { params: { id: invoice.id }, headers: { 'if-match': etagOf(invoice.modified_dt) } })).data;
      } catch (error) {
        throw changedMeanwhile(queryClient, invoice.id, error, 'it was not voided');
      }
    },
    onSuccess: (invoice) => refresh(queryClient, invoice),
  });
}

/** Records a payment of at most the balance due. */
export function useRecordPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ invoice, payment }: { invoice: Invoice; payment: PaymentInput }): Promise<Invoice> => {
      try {
        return (
          await callApi(invoiceRoutes.pay, { params: { id: invoice.id }, body: payment, headers: { 'if-match': etagOf(invoice.modified_dt) } })
        ).data;
      } catch (error) {
        throw changedMeanwhile(queryClient, invoice.id, error, 'the payment was not recorded');
      }
    },
    onSuccess: (invoice) => refresh(queryClient, invoice),
  });
}

/** Removes a payment recorded by mistake. */
export function useRemovePayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ invoice, paymentId }: { invoice: Invoice; paymentId: string }): Promise<Invoice> => {
      try {
        return (
          await callApi(invoiceRoutes.unpay, { params: { id: invoice.id, paymentId }, headers: { 'if-match': etagOf(invoice.modified_dt) } })
        ).data;
      } catch (error) {
        throw changedMeanwhile(queryClient, invoice.id, error, 'the payment was not removed');
      }
    },
    onSuccess: (invoice) => refresh(queryClient, invoice),
  });
}
