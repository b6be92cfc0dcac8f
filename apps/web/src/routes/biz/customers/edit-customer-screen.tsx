import { EmptyState, Notice, PageHeader, buttonClassName, useToast } from '@otto/ui';
import { useState } from 'react';
import type { CustomerInput } from '@otto/api-contract';
import { Link, useNavigate, useParams } from 'react-router';
import { ArchiveButton } from '../../../features/archive/archive-button';
import { ArchivedNotice } from '../../../features/archive/archived-notice';
import { useCustomer } from '../../../features/customers/api/get-customer';
import { useUpdateCustomer } from '../../../features/customers/api/update-customer';
import { CustomerDetailsCard, CustomerNotesGlance } from '../../../features/customers/components/customer-details-card';
import { CustomerForm } from '../../../features/customers/components/customer-form';
import { CustomerInvoices } from '../../../features/invoices/components/customer-invoices';
import { CustomerJobs } from '../../../features/jobs/components/customer-jobs';
import { ApiClientError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { ChangedElsewhereNotice } from '../../../lib/live/changed-elsewhere-notice';
import { useEditConflict } from '../../../lib/live/use-edit-conflict';
import { listReturnHref } from '../../../lib/list-return';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useUnsavedChangesGuard } from '../../../lib/use-unsaved-changes-guard';

/** A `tel:` link for a phone number as people write it (its digits and a leading +), or '' when it has no digits. */
function telHref(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, '').replace(/(?!^)\+/g, '');
  return /\d/.test(digits) ? `tel:${digits}` : '';
}

export default function EditCustomerScreen() {
  const { id = '' } = useParams();
  const customer = useCustomer(id);
  const update = useUpdateCustomer();
  const toast = useToast();
  const [dirty, setDirty] = useState(false);
  const [detailsDirty, setDetailsDirty] = useState(false);
  /** The version the user chose to keep editing over: fields they did not touch take its values. */
  const [kept, setKept] = useState<{ id: string; input: CustomerInput }>();
  const guard = useUnsavedChangesGuard(dirty || detailsDirty);
  const navigate = useNavigate();
  useDocumentTitle(customer.data ? customer.data.full_name : 'Customer');
  const conflict = useEditConflict({
    id,
    current: customer.data?.modified_dt ?? 0,
    saved: update.data?.id === id ? update.data.modified_dt : undefined,
    saving: update.isPending,
    sameAsSaved:
      update.data?.id === id &&
      customer.data !== undefined &&
      (['full_name', 'email', 'phone'] as const).every((field) => customer.data[field] === update.data?.[field]),
  });

  if (customer.isPending) return <p role="status">Loading customer…</p>;
  if (customer.isError) {
    const missing = customer.error instanceof ApiClientError && customer.error.status === 404;
    return missing ? (
      <EmptyState
        headingLevel={2}
        title="Customer not found"
        description={`There is no customer with the id “${id}”. It may have been typed wrong.`}
        action={
          <Link className={buttonClassName()} to={listReturnHref('customers')}>
            Back to customers
          </Link>
        }
      />
    ) : (
      <Notice tone="error" title="The customer could not be loaded">
        {customer.error.message}
      </Notice>
    );
  }

  const c = customer.data;
  return (
    <>
      <PageHeader
        focusTitle
        title={c.full_name}
        description={
          <>
            <Link to={listReturnHref('customers')}>Back to customers</Link> · Customer since{' '}
            {formatDateTime(c.created_dt)} · Last changed {formatDateTime(c.modified_dt)}
            {(telHref(c.phone) || c.email) && (
              <span className="customer-contact">
                {telHref(c.phone) && <a href={telHref(c.phone)}>Call {c.phone}</a>}
                {c.email && <a href={`mailto:${encodeURIComponent(c.email).replace('%40', '@')}`}>Email {c.email}</a>}
              </span>
            )}
          </>
        }
        actions={
          c.archived_dt == null ? (
            <ArchiveButton
              kind="customer"
              id={c.id}
              name={c.full_name}
              note="Their jobs are kept."
              onArchived={async () => {
                guard.allowNextNavigation();
                await navigate(listReturnHref('customers'));
              }}
            />
          ) : undefined
        }
      />
      {c.archived_dt != null && <ArchivedNotice kind="customer" id={c.id} name={c.full_name} archivedDt={c.archived_dt} modified={c.modified_dt} />}
      <CustomerNotesGlance customerId={c.id} />
      {conflict.changed && (
        <ChangedElsewhereNotice
          what="customer"
          onLoad={() => {
            conflict.loadNewVersion();
            setKept(undefined);
            setDirty(false);
          }}
          onKeepEditing={() => {
            conflict.keepEditing();
            setKept({ id: c.id, input: { full_name: c.full_name, email: c.email, phone: c.phone } });
          }}
        />
      )}
      <CustomerForm
        key={conflict.formKey}
        initial={{ full_name: c.full_name, email: c.email, phone: c.phone }}
        incoming={kept?.id === c.id ? kept.input : undefined}
        submitLabel="Save changes"
        saving={update.isPending}
        onDirtyChange={setDirty}
        onSubmit={async (input) => {
          const saved = await update.mutateAsync({ id: c.id, input, version: conflict.expected });
          toast.show(`Changes to ${saved.full_name} were saved.`, { tone: 'success' });
        }}
      />
      <CustomerDetailsCard key={c.id} customerId={c.id} customerName={c.full_name} archived={c.archived_dt != null} onDirtyChange={setDetailsDirty} />
      <CustomerJobs customerId={c.id} customerName={c.full_name} />
      <CustomerInvoices customerId={c.id} customerName={c.full_name} />
      {guard.dialog}
    </>
  );
}
