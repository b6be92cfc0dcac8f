import { PageHeader, useToast } from '@otto/ui';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useCustomerDetails } from '../../../features/customers/api/customer-details';
import { useCreateJob } from '../../../features/jobs/api/save-job';
import { JobForm, jobFormValues } from '../../../features/jobs/components/job-form';
import { useCustomerName } from '../../../features/jobs/api/use-customer-name';
import { listReturnHref } from '../../../lib/list-return';
import { paths } from '../../../lib/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useUnsavedChangesGuard } from '../../../lib/use-unsaved-changes-guard';

export default function NewJobScreen() {
  useDocumentTitle('New job');
  const [searchParams] = useSearchParams();
  const customerId = searchParams.get('customerId') ?? '';
  const customer = useCustomerName(customerId);
  // Their one service address, when they have exactly one, starts the job's address.
  const details = useCustomerDetails(customerId);
  const create = useCreateJob();
  const navigate = useNavigate();
  const toast = useToast();
  const [dirty, setDirty] = useState(false);
  const guard = useUnsavedChangesGuard(dirty);

  if (customerId && (customer.isPending || details.isPending)) return <p role="status">Loading customer…</p>;
  const picked = customer.data ? { id: customerId, name: customer.data } : null;
  const onlyAddress = picked && details.data?.addresses.length === 1 ? details.data.addresses[0]!.address : '';

  return (
    <>
      <PageHeader
        title="New job"
        description={
          picked ? (
            <Link to={paths.customers.edit.href(picked.id)}>Back to {picked.name}</Link>
          ) : (
            <Link to={listReturnHref('jobs')}>Back to jobs</Link>
          )
        }
      />
      <JobForm
        initial={jobFormValues(undefined, picked, onlyAddress)}
        submitLabel="Create job"
        focusFirst
        saving={create.isPending}
        onDirtyChange={setDirty}
        onSubmit={async (fields) => {
          const job = await create.mutateAsync(fields);
          toast.show(`Job “${job.title}” was created for ${job.customer_name}.`, { tone: 'success' });
          guard.allowNextNavigation();
          // The new job's screen puts focus on its next step (Schedule): moving it along is what comes next.
          await navigate(paths.jobs.edit.href(job.id), { replace: true, state: { created: true } });
        }}
      />
      {guard.dialog}
    </>
  );
}
