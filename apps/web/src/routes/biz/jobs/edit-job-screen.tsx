import { EmptyState, PageHeader } from '@otto/ui';
import { useDocumentTitle } from '../../../lib/use-document-title';

export default function EditJobScreen() {
  useDocumentTitle('Edit job');
  return (
    <>
      <PageHeader title="Edit job" />
      <EmptyState title="Jobs are on their way" description="Editing jobs is not available in this version of Otto yet." />
    </>
  );
}
