import { jobRoutes, type Job } from '@otto/api-contract';
import { Button, Notice, PageHeader, useToast } from '@otto/ui';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useBusinessSettings } from '../../../features/invoices/api/business-settings';
import { useCreateInvoice } from '../../../features/invoices/api/save-invoice';
import { InvoiceForm, blankLine, jobLine } from '../../../features/invoices/components/invoice-form';
import { daysAfter, today } from '../../../features/invoices/invoice-words';
import { useCustomerName } from '../../../features/jobs/api/use-customer-name';
import { callApi } from '../../../lib/api-client';
import { listReturnHref } from '../../../lib/list-return';
import { paths } from '../../../lib/paths';
import { jobKeys } from '../../../lib/query-keys';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useUnsavedChangesGuard } from '../../../lib/use-unsaved-changes-guard';

const idPattern = /^[1-9]\d{0,15}$/;

/** A new invoice: for the completed jobs in `?jobs=1,2` (a line each), or for the customer in `?customer=7`. */
export default function NewInvoiceScreen() {
  useDocumentTitle('New invoice');
  const [searchParams] = useSearchParams();
  const jobIds = [...new Set((searchParams.get('jobs') ?? '').split(',').filter((id) => idPattern.test(id)))];
  const customerParam = searchParams.get('customer') ?? '';
  const customerId = idPattern.test(customerParam) ? customerParam : '';
  const customer = useCustomerName(customerId);
  const settings = useBusinessSettings();
  const jobs = useQueries({
    queries: jobIds.map((id) => ({
      queryKey: jobKeys.detail(id),
      queryFn: async ({ signal }: { signal: AbortSignal }) => (await callApi(jobRoutes.get, { params: { id }, signal })).data,
      retry: false,
    })),
  });
  const create = useCreateInvoice();
  const navigate = useNavigate();
  const toast = useToast();
  const [dirty, setDirty] = useState(false);
  const guard = useUnsavedChangesGuard(dirty);

  const header = (
    <PageHeader
      title="New invoice"
      description={
        customer.data ? (
          <Link to={paths.customers.edit.href(customerId)}>Back to {customer.data}</Link>
        ) : (
          <Link to={listReturnHref('invoices')}>Back to invoices</Link>
        )
      }
    />
  );
  if (settings.isPending || jobs.some((j) => j.isPending) || (customerId && customer.isPending)) {
    return (
      <>
        {header}
        <p role="status">Loading…</p>
      </>
    );
  }
  if (settings.isError) {
    return (
      <>
        {header}
        <Notice
          tone="error"
          title="Your business details could not be loaded"
          action={
            <Button size="sm" onClick={() => void settings.refetch()}>
              Try again
            </Button>
          }
        >
          {settings.error.message}
        </Notice>
      </>
    );
  }
  const found = jobs.flatMap((j) => (j.data ? [j.data] : []));
  const missing = jobIds.filter((id) => !found.some((j) => j.id === id));
  const first: Job | undefined = found[0];
  const picked = customer.data ? { id: customerId, name: customer.data } : first ? { id: first.customer_id, name: first.customer_name } : null;
  const billed = found.filter((j) => j.customer_id === picked?.id);
  const { default_tax_rate_bp: taxBp, payment_terms_days: terms } = settings.data;
  const issueDate = today();

  return (
    <>
      {header}
      {missing.length > 0 && (
        <Notice tone="warning" title={missing.length === 1 ? 'A job could not be found' : 'Some jobs could not be found'}>
          {missing.map((id) => `Job ${id}`).join(', ')} {missing.length === 1 ? 'is' : 'are'} not on this invoice: {missing.length === 1 ? 'it' : 'they'} may have been deleted.
        </Notice>
      )}
      <InvoiceForm
        mode="new"
        initial={{
          customer: picked,
          jobIds: billed.map((j) => j.id),
          issueDate,
          dueDate: daysAfter(issueDate, terms),
          lines: billed.length ? billed.map((j) => jobLine(j, taxBp)) : [blankLine(taxBp)],
          note: '',
        }}
        knownJobs={billed}
        defaultTaxBp={taxBp}
        termsDays={terms}
        submitLabel="Create invoice"
        focusFirst={picked === null}
        saving={create.isPending}
        onDirtyChange={setDirty}
        onSubmit={async (input) => {
          const invoice = await create.mutateAsync(input);
          toast.show(`Invoice ${invoice.reference} was issued to ${invoice.customer_name}.`, { tone: 'success' });
          guard.allowNextNavigation();
          await navigate(paths.invoices.view.href(invoice.id), { replace: true });
        }}
      />
      {guard.dialog}
    </>
  );
}
