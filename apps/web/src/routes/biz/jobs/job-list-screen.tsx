import { PageHeader, buttonClassName } from '@otto/ui';
import { Link } from 'react-router';
import { JobList } from '../../../features/jobs/components/job-list';
import { useRememberListLocation } from '../../../lib/list-return';
import { paths } from '../../../lib/paths';
import { shortcutHint } from '../../../lib/shortcuts/shortcut-list';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** The list's first page and the tab counts, asked for while the screen first renders (lazyScreen's prefetch). */
export { prefetchJobList as prefetch } from '../../../features/jobs/api/job-list-params';

export default function JobListScreen() {
  useDocumentTitle('Jobs');
  useRememberListLocation('jobs');
  return (
    <>
      <PageHeader
        title="Jobs"
        description="The work you do for your customers, from quote to paid."
        actions={
          <Link className={buttonClassName({ variant: 'primary' })} to={paths.jobs.new.href()} {...shortcutHint(['n'])}>
            New job
          </Link>
        }
      />
      <JobList />
    </>
  );
}
