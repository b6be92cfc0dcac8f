import { jobRoutes, type Invoice, type Payment } from '@otto/api-contract';
import { Button, EmptyState, Notice, PageHeader, buttonClassName, useToast } from '@otto/ui';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useInvoice } from '../../../features/invoices/api/get-invoice';
import { useRecordPayment, useRemovePayment, useVoidInvoice } from '../../../features/invoices/api/save-invoice';
import { InvoiceDocument } from '../../../features/invoices/components/invoice-document';
import { InvoiceStatusBadge } from '../../../features/invoices/components/invoice-status-badge';
import { PaymentForm } from '../../../features/invoices/components/payment-form';
import { formatDay } from '../../../features/invoices/invoice-words';
import { JobStatusBadge } from '../../../features/jobs/components/job-status-badge';
import { ApiClientError, callApi } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';
import { formatMoney } from '../../../lib/format';
import { listReturnHref } from '../../../lib/list-return';
import { Modal } from '../../../lib/modal';
import { paths } from '../../../lib/paths';
import { jobKeys } from '../../../lib/query-keys';
import { useSettings } from '../../../lib/settings';
import { useDocumentTitle } from '../../../lib/use-document-title';

function Missing({ title, text }: { title: string; text: string }) {
  return (
    <EmptyState
      headingLevel={2}
      title={title}
      description={text}
      action={
        <Link className={buttonClassName()} to={listReturnHref('invoices')}>
          Back to invoices
        </Link>
      }
    />
  );
}

/** One invoice as a document, to print or download as PDF, with its payments, and what can be done with it. */
export default function InvoiceScreen() {
  const { id = '' } = useParams();
  const invoice = useInvoice(id);
  useDocumentTitle(invoice.data ? `Invoice ${invoice.data.reference}` : 'Invoice');

  if (invoice.isPending) return <p role="status">Loading invoice…</p>;
  if (invoice.isError) {
    return invoice.error instanceof ApiClientError && invoice.error.status === 404 ? (
      <Missing title="Invoice not found" text={`There is no invoice with the id “${id}”.`} />
    ) : (
      <Notice
        tone="error"
        title="The invoice could not be loaded"
        action={
          <Button size="sm" onClick={() => void invoice.refetch()}>
            Try again
          </Button>
        }
      >
        {invoice.error.message}
      </Notice>
    );
  }
  return <InvoiceView invoice={invoice.data} />;
}

function InvoiceView({ invoice: i }: { invoice: Invoice }) {
  const toast = useToast();
  const { currency } = useSettings();
  const pay = useRecordPayment();
  const unpay = useRemovePayment();
  const voiding = useVoidInvoice();
  const [confirmVoid, setConfirmVoid] = useState(false);
  const [pdfBusy, setPdfBusy] = useState(false);
  const jobs = useQueries({
    queries: i.job_ids.map((id) => ({
      queryKey: jobKeys.detail(id),
      queryFn: async ({ signal }: { signal: AbortSignal }) => (await callApi(jobRoutes.get, { params: { id }, signal })).data,
    })),
  });
  const noPayments = i.payments.length === 0;
  const editable = i.status === 'open' && noPayments;

  async function downloadPdf() {
    setPdfBusy(true);
    try {
      const { invoicePdf } = await import('../../../features/invoices/invoice-pdf');
      const bytes = await invoicePdf(i, i.currency || currency);
      downloadFile(bytes as Uint8Array<ArrayBuffer>, `${i.reference}.pdf`, 'application/pdf');
    } catch {
      toast.show('The PDF could not be made. Try again, or print the invoice instead.', { tone: 'error' });
    } finally {
      setPdfBusy(false);
    }
  }

  async function removePayment(payment: Payment) {
    try {
      const after = await unpay.mutateAsync({ invoice: i, paymentId: payment.id });
      toast.show(`The payment of ${formatMoney(payment.amount_cents, i.currency || undefined)} was removed. Balance due: ${formatMoney(after.balance_cents, i.currency || undefined)}.`, { tone: 'success' });
    } catch (error) {
      toast.show(error instanceof ApiClientError ? error.message : 'The payment could not be removed. Try again.', { tone: 'error' });
    }
  }

  return (
    <div className="otto-stack otto-stack--lg invoice-screen">
      <PageHeader
        focusTitle
        title={`Invoice ${i.reference}`}
        description={
          <>
            <InvoiceStatusBadge invoice={i} /> for <Link to={paths.customers.edit.href(i.customer_id)}>{i.customer_name}</Link> · due {formatDay(i.due_date)} ·{' '}
            <Link to={listReturnHref('invoices')}>Back to invoices</Link>
          </>
        }
        actions={
          <div className="otto-cluster invoice-actions">
            <Button onClick={() => window.print()}>Print</Button>
            <Button loading={pdfBusy} onClick={() => void downloadPdf()}>
              Download PDF
            </Button>
            {editable && (
              <Link className={buttonClassName()} to={paths.invoices.edit.href(i.id)}>
                Edit
              </Link>
            )}
            {i.status !== 'void' && noPayments && (
              <Button variant="danger" onClick={() => setConfirmVoid(true)}>
                Void
              </Button>
            )}
          </div>
        }
      />
      {i.status === 'open' && !noPayments && (
        <p className="otto-muted invoice-no-print">To change or void this invoice, remove its payments first.</p>
      )}
      {i.job_ids.length > 0 && (
        <section aria-labelledby="invoice-jobs-title" className="otto-card invoice-no-print">
          <h2 id="invoice-jobs-title" className="otto-card__title">
            {i.job_ids.length === 1 ? 'Job billed' : 'Jobs billed'}
          </h2>
          <ul className="invoice-billed-jobs">
            {i.job_ids.map((jobId, n) => {
              const job = jobs[n]?.data;
              return (
                <li key={jobId}>
                  <Link to={paths.jobs.edit.href(jobId)}>{job ? job.title : `Job ${jobId}`}</Link> {job && <JobStatusBadge status={job.status} />}
                </li>
              );
            })}
          </ul>
        </section>
      )}
      {i.status === 'open' && (
        <section aria-labelledby="payment-title" className="otto-card invoice-no-print">
          <h2 id="payment-title" className="otto-card__title">
            Record payment
          </h2>
          <PaymentForm
            key={i.modified_dt}
            invoice={i}
            saving={pay.isPending}
            onSubmit={async (payment) => {
              const after = await pay.mutateAsync({ invoice: i, payment });
              toast.show(
                after.status === 'paid'
                  ? `Invoice ${after.reference} is paid in full.`
                  : `A payment of ${formatMoney(payment.amount_cents ?? 0, i.currency || undefined)} was recorded. Balance due: ${formatMoney(after.balance_cents, i.currency || undefined)}.`,
                { tone: 'success' },
              );
            }}
          />
        </section>
      )}
      <InvoiceDocument
        invoice={i}
        onRemovePayment={i.status === 'void' ? undefined : (p) => void removePayment(p)}
        removing={unpay.isPending ? unpay.variables.paymentId : undefined}
      />
      {confirmVoid && (
        <Modal title={`Void invoice ${i.reference}?`} role="alertdialog" onClose={() => setConfirmVoid(false)}>
          <p>
            Nothing is owed on a void invoice. Its number stays used, and {i.job_ids.length === 1 ? 'its job goes' : 'its jobs go'} back to
            Completed, ready to invoice again. This cannot be undone.
          </p>
          <div className="otto-dialog__actions">
            <Button autoFocus onClick={() => setConfirmVoid(false)}>
              Keep it
            </Button>
            <Button
              variant="danger"
              loading={voiding.isPending}
              onClick={async () => {
                try {
                  await voiding.mutateAsync(i);
                  setConfirmVoid(false);
                  toast.show(`Invoice ${i.reference} is void.`, { tone: 'success' });
                } catch (error) {
                  setConfirmVoid(false);
                  toast.show(error instanceof ApiClientError ? error.message : 'The invoice could not be voided. Try again.', { tone: 'error' });
                }
              }}
            >
              Void invoice
            </Button>
          </div>
        </Modal>
      )}
    </div>
  );
}
