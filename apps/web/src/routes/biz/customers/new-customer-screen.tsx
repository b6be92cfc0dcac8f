import { PageHeader, useToast } from '@otto/ui';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCreateCustomer } from '../../../features/customers/api/create-customer';
import { CustomerForm } from '../../../features/customers/components/customer-form';
import { listReturnHref } from '../../../lib/list-return';
import { paths } from '../../../lib/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useUnsavedChangesGuard } from '../../../lib/use-unsaved-changes-guard';

export default function NewCustomerScreen() {
  useDocumentTitle('New customer');
  const create = useCreateCustomer();
  const navigate = useNavigate();
  const toast = useToast();
  const [dirty, setDirty] = useState(false);
  const guard = useUnsavedChangesGuard(dirty);

  return (
    <>
      <PageHeader
        title="New customer"
        description={<Link to={listReturnHref('customers')}>Back to customers</Link>}
      />
      <CustomerForm
        submitLabel="Create customer"
        saving={create.isPending}
        onDirtyChange={setDirty}
        onSubmit={async (input) => {
          const customer = await create.mutateAsync(input);
          toast.show(`${customer.full_name} was added.`, { tone: 'success' });
          guard.allowNextNavigation();
          await navigate(paths.customers.edit.href(customer.id), { replace: true });
        }}
      />
      {guard.dialog}
    </>
  );
}
