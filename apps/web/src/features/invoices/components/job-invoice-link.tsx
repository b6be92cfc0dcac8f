import type { Job } from '@otto/api-contract';
import { buttonClassName } from '@otto/ui';
import { Link } from 'react-router';
import { formatMoney } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useJobInvoice } from '../api/get-invoices';
import { InvoiceStatusBadge } from './invoice-status-badge';

/** On a job's screen: a completed job offers its invoice; an invoiced or paid one links to it. */
export function JobInvoiceLink({ job }: { job: Job }) {
  const billed = job.status === 'invoiced' || job.status === 'paid';
  const invoice = useJobInvoice(job.id, billed);
  if (job.status === 'completed') {
    return (
      <p className="job-invoice">
        <Link className={buttonClassName({ variant: 'primary', size: 'sm' })} to={paths.invoices.new.href({ jobs: [job.id] })}>
          Create invoice
        </Link>{' '}
        <span className="otto-muted">The work is done: bill it.</span>
      </p>
    );
  }
  if (!billed) return null;
  if (invoice.isPending) return <p className="job-invoice otto-muted">Finding its invoice…</p>;
  if (invoice.isError) return <p className="job-invoice" role="alert">Its invoice could not be found: {invoice.error.message}</p>;
  if (!invoice.data) return null;
  const i = invoice.data;
  return (
    <p className="job-invoice">
      On invoice <Link to={paths.invoices.view.href(i.id)}>{i.reference}</Link> <InvoiceStatusBadge invoice={i} />{' '}
      <span className="otto-muted">
        {i.status === 'open' ? `${formatMoney(i.balance_cents, i.currency || undefined)} still due.` : i.status === 'paid' ? `${formatMoney(i.total_cents, i.currency || undefined)} paid.` : ''}
      </span>
    </p>
  );
}
