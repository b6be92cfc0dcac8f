import { EmptyState, PageHeader } from '@otto/ui';
import { useDocumentTitle } from '../../../lib/use-document-title';

export default function JobListScreen() {
  useDocumentTitle('Jobs');
  return (
    <>
      <PageHeader title="Jobs" description="The work you do for your customers." />
      <EmptyState title="Jobs are on their way" description="Tracking jobs is not available in this version of Otto yet." />
    </>
  );
}
