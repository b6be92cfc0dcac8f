import { PageHeader, buttonClassName } from '@otto/ui';
import { Link } from 'react-router';
import { InvoiceList } from '../../../features/invoices/components/invoice-list';
import { useRememberListLocation } from '../../../lib/list-return';
import { paths } from '../../../lib/paths';
import { shortcutHint } from '../../../lib/shortcuts/shortcut-list';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** The list's first page, asked for while the screen first renders (lazyScreen's prefetch). */
export { prefetchInvoiceList as prefetch } from '../../../features/invoices/api/invoice-list-params';

export default function InvoiceListScreen() {
  useDocumentTitle('Invoices');
  useRememberListLocation('invoices');
  return (
    <>
      <PageHeader
        title="Invoices"
        description="What you have billed, what has been paid and what is still owed."
        actions={
          <Link className={buttonClassName({ variant: 'primary' })} to={paths.invoices.new.href()} {...shortcutHint(['n'])}>
            New invoice
          </Link>
        }
      />
      <InvoiceList />
    </>
  );
}
