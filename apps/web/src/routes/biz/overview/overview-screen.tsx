import { PageHeader } from '@otto/ui';
import { Overview } from '../../../features/reports/components/overview';
import { useDocumentTitle } from '../../../lib/use-document-title';

export default function OverviewScreen() {
  useDocumentTitle('Overview');
  return (
    <div className="otto-stack otto-stack--lg">
      <PageHeader title="Overview" description="What needs doing this week, and how the business is doing." />
      <Overview />
    </div>
  );
}
