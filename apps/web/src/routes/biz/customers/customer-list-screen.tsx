import { PageHeader, buttonClassName } from '@otto/ui';
import { Link } from 'react-router';
import { CustomerList } from '../../../features/customers/components/customer-list';
import { useRememberListLocation } from '../../../lib/list-return';
import { paths } from '../../../lib/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';

export default function CustomerListScreen() {
  useDocumentTitle('Customers');
  useRememberListLocation('customers');
  return (
    <>
      <PageHeader
        title="Customers"
        description="Everyone you do work for. Search by name, email or phone."
        actions={
          <Link className={buttonClassName({ variant: 'primary' })} to={paths.customers.new.href()}>
            New customer
          </Link>
        }
      />
      <CustomerList />
    </>
  );
}
