import { EmptyState, PageHeader } from '@otto/ui';
import { useDocumentTitle } from '../../../lib/use-document-title';

export default function NewJobScreen() {
  useDocumentTitle('New job');
  return (
    <>
      <PageHeader title="New job" />
      <EmptyState title="Jobs are on their way" description="Creating jobs is not available in this version of Otto yet." />
    </>
  );
}
