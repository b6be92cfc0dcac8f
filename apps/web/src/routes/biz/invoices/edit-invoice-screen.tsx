import { Button, EmptyState, Notice, PageHeader, buttonClassName, useToast } from '@otto/ui';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useBusinessSettings } from '../../../features/invoices/api/business-settings';
import { useInvoice } from '../../../features/invoices/api/get-invoice';
import { useUpdateInvoice } from '../../../features/invoices/api/save-invoice';
import { InvoiceForm, savedLines } from '../../../features/invoices/components/invoice-form';
import { ApiClientError } from '../../../lib/api-client';
import { ChangedElsewhereNotice } from '../../../lib/live/changed-elsewhere-notice';
import { useEditConflict } from '../../../lib/live/use-edit-conflict';
import { listReturnHref } from '../../../lib/list-return';
import { paths } from '../../../lib/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useUnsavedChangesGuard } from '../../../lib/use-unsaved-changes-guard';

/** Changes the dates, lines and note of an open invoice with no payments (PUT over the version shown). */
export default function EditInvoiceScreen() {
  const { id = '' } = useParams();
  const invoice = useInvoice(id);
  const settings = useBusinessSettings();
  const update = useUpdateInvoice();
  const toast = useToast();
  const navigate = useNavigate();
  const [dirty, setDirty] = useState(false);
  const guard = useUnsavedChangesGuard(dirty);
  useDocumentTitle(invoice.data ? `Edit invoice ${invoice.data.reference}` : 'Edit invoice');
  const conflict = useEditConflict({
    id,
    current: invoice.data?.modified_dt ?? 0,
    saved: update.data?.id === id ? update.data.modified_dt : undefined,
    saving: update.isPending,
  });

  if (invoice.isPending || settings.isPending) return <p role="status">Loading invoice…</p>;
  if (invoice.isError || settings.isError) {
    const error = invoice.error ?? settings.error;
    return error instanceof ApiClientError && error.status === 404 ? (
      <EmptyState
        headingLevel={2}
        title="Invoice not found"
        description={`There is no invoice with the id “${id}”.`}
        action={
          <Link className={buttonClassName()} to={listReturnHref('invoices')}>
            Back to invoices
          </Link>
        }
      />
    ) : (
      <Notice tone="error" title="The invoice could not be loaded">
        {error?.message}
      </Notice>
    );
  }
  const i = invoice.data;
  const back = <Link to={paths.invoices.view.href(i.id)}>Back to invoice {i.reference}</Link>;
  if (i.status !== 'open' || i.payments.length > 0) {
    return (
      <>
        <PageHeader title={`Edit invoice ${i.reference}`} description={back} />
        <Notice tone="info" title="This invoice cannot be changed">
          {i.status === 'void'
            ? 'It is void.'
            : i.status === 'paid'
              ? 'It is paid. Remove its payments first to change it.'
              : 'It has payments recorded. Remove them first to change it.'}
        </Notice>
      </>
    );
  }
  return (
    <>
      <PageHeader focusTitle title={`Edit invoice ${i.reference}`} description={back} />
      {conflict.changed && (
        <ChangedElsewhereNotice
          what="invoice"
          onLoad={() => {
            conflict.loadNewVersion();
            setDirty(false);
          }}
          onKeepEditing={() => conflict.keepEditing()}
        />
      )}
      <InvoiceForm
        key={conflict.formKey}
        mode="edit"
        initial={{
          customer: { id: i.customer_id, name: i.customer_name },
          jobIds: i.job_ids,
          issueDate: i.issue_date,
          dueDate: i.due_date,
          lines: savedLines(i.lines),
          note: i.note,
        }}
        defaultTaxBp={settings.data.default_tax_rate_bp}
        termsDays={settings.data.payment_terms_days}
        submitLabel="Save changes"
        saving={update.isPending}
        onDirtyChange={setDirty}
        onSubmit={async (input) => {
          const saved = await update.mutateAsync({
            id: i.id,
            fields: { issue_date: input.issue_date, due_date: input.due_date, lines: input.lines, note: input.note ?? '' },
            version: conflict.expected,
          });
          toast.show(`Invoice ${saved.reference} was saved.`, { tone: 'success' });
          guard.allowNextNavigation();
          await navigate(paths.invoices.view.href(saved.id));
        }}
      />
      <p>
        <Button variant="ghost" size="sm" onClick={() => void navigate(paths.invoices.view.href(i.id))}>
          Cancel
        </Button>
      </p>
      {guard.dialog}
    </>
  );
}
