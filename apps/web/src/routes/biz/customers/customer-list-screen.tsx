import { Button, PageHeader, buttonClassName } from '@otto/ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { ImportDialog } from '../../../features/import/components/import-dialog';
import { CustomerList } from '../../../features/customers/components/customer-list';
import { useRememberListLocation } from '../../../lib/list-return';
import { paths } from '../../../lib/paths';
import { shortcutHint } from '../../../lib/shortcuts/shortcut-list';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** The list's first page, asked for while the screen first renders (lazyScreen's prefetch). */
export { prefetchCustomerList as prefetch } from '../../../features/customers/api/get-customers';

export default function CustomerListScreen() {
  useDocumentTitle('Customers');
  useRememberListLocation('customers');
  const [importing, setImporting] = useState(false);
  return (
    <>
      <PageHeader
        title="Customers"
        description="Everyone you do work for. Search by name, email or phone."
        actions={
          <>
            <Button onClick={() => setImporting(true)}>Import…</Button>
            <Link className={buttonClassName({ variant: 'primary' })} to={paths.customers.new.href()} {...shortcutHint(['n'])}>
              New customer
            </Link>
          </>
        }
      />
      {importing && <ImportDialog initialKind="customers" onClose={() => setImporting(false)} />}
      <CustomerList />
    </>
  );
}
