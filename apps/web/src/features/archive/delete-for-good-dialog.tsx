import { Button, buttonClassName } from '@otto/ui';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatCount } from '../../lib/format';
import { Modal } from '../../lib/modal';
import { paths } from '../../lib/paths';
import { jobsOptions } from '../jobs/api/get-jobs';

/**
 * "Delete for good?" with what it means; Escape or Keep it answers no. A customer who still has
 * jobs (archived ones too) cannot be deleted: the dialog finds that out first and says so, with the
 * way to their jobs, instead of offering a deletion the backend would refuse.
 */
export function DeleteForGoodDialog(props: {
  /** The record's id (a customer's jobs are counted by it). */
  id: string;
  name: string;
  kind: 'customer' | 'job';
  deleting: boolean;
  onCancel: () => void;
  onConfirm: () => void | Promise<void>;
}) {
  const jobs = useCustomerJobCount(props.kind === 'customer' ? props.id : undefined);
  if (jobs.count !== undefined && jobs.count.all > 0) {
    const { all, archived } = jobs.count;
    return (
      <Modal title={`${props.name} cannot be deleted yet`} role="alertdialog" onClose={props.onCancel}>
        <p>
          {props.name} still has {formatCount(all, 'job')}
          {archived > 0 ? ` (${archived === all ? (all === 1 ? 'archived' : 'all archived') : `${archived} of them archived`})` : ''}. A customer
          with jobs cannot be deleted: delete their jobs for good first, or keep {props.name} archived.
        </p>
        <div className="otto-dialog__actions">
          {/* Their jobs in lists are on their screen; archived ones only on the Archived screen. */}
          <Link className={buttonClassName({})} to={archived === all ? paths.archived.href() : paths.customers.edit.href(props.id)} onClick={props.onCancel}>
            {archived === all ? 'Show the archived jobs' : 'Show their jobs'}
          </Link>
          <Button autoFocus onClick={props.onCancel}>
            Close
          </Button>
        </div>
      </Modal>
    );
  }
  return (
    <Modal title={`Delete ${props.name} for good?`} role="alertdialog" onClose={props.onCancel}>
      <p>
        {props.kind === 'customer'
          ? 'The customer and their details are removed from Otto. This cannot be undone.'
          : 'The job and its history are removed from Otto. This cannot be undone.'}
      </p>
      {jobs.checking && <p role="status">Checking whether {props.name} has jobs…</p>}
      <div className="otto-dialog__actions">
        <Button autoFocus onClick={props.onCancel}>
          Keep it
        </Button>
        <Button variant="danger" loading={props.deleting} disabled={jobs.checking} onClick={() => void props.onConfirm()}>
          Delete for good
        </Button>
      </div>
    </Modal>
  );
}

/** How many jobs a customer has, in lists and archived (`undefined` for a job, or until both are known). */
function useCustomerJobCount(customerId: string | undefined) {
  const enabled = customerId !== undefined;
  const active = useQuery({ ...jobsOptions({ customerId, limit: 1 }), enabled });
  const archived = useQuery({ ...jobsOptions({ customerId, archived: true, limit: 1 }), enabled });
  if (!enabled) return { checking: false, count: undefined };
  // A count that cannot be loaded leaves the decision to the backend, which refuses in words.
  if (active.isError || archived.isError) return { checking: false, count: undefined };
  if (!active.data || !archived.data) return { checking: true, count: undefined };
  const inLists = active.data.totalCount ?? 0;
  const archivedCount = archived.data.totalCount ?? 0;
  return { checking: false, count: { all: inLists + archivedCount, archived: archivedCount } };
}
