import type { CustomerDuplicate, CustomerInput } from '@otto/api-contract';
import { Button, Notice, PageHeader, useToast } from '@otto/ui';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { findDuplicates } from '../../../features/archive/archive-api';
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
  // A customer who already has this email or phone: shown before creating a second one.
  const [duplicate, setDuplicate] = useState<{ match: CustomerDuplicate; input: CustomerInput }>();

  async function createNow(input: CustomerInput) {
    const customer = await create.mutateAsync(input);
    toast.show(`${customer.full_name} was added.`, { tone: 'success' });
    guard.allowNextNavigation();
    await navigate(paths.customers.edit.href(customer.id), { replace: true });
  }

  return (
    <>
      <PageHeader
        title="New customer"
        description={<Link to={listReturnHref('customers')}>Back to customers</Link>}
      />
      {duplicate && (
        <Notice
          tone="warning"
          title="This customer may already be in Otto"
          action={
            <div className="errand-actions">
              <Button size="sm" variant="primary" loading={create.isPending} onClick={() => void createNow(duplicate.input).catch(() => undefined)}>
                Create anyway
              </Button>
            </div>
          }
        >
          {duplicate.match.customer.full_name} already has this {duplicate.match.matched.map((m) => (m === 'phone' ? 'phone number' : m)).join(' and ')}:{' '}
          <Link to={paths.customers.edit.href(duplicate.match.customer.id)}>open them</Link>, or create anyway.
        </Notice>
      )}
      <CustomerForm
        submitLabel="Create customer"
        focusFirst
        saving={create.isPending}
        onDirtyChange={setDirty}
        onSubmit={async (input) => {
          const same = duplicate && JSON.stringify(duplicate.input) === JSON.stringify(input);
          if (!same) {
            // A failed check never blocks creating: the warning is a help, not a rule.
            const [match] = await findDuplicates(input).catch(() => []);
            if (match) {
              // Not created: the warning (a status region) asks; the fields keep what was typed.
              setDuplicate({ match, input });
              return;
            }
          }
          setDuplicate(undefined);
          await createNow(input);
        }}
      />
      {guard.dialog}
    </>
  );
}
