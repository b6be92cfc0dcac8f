import { Button } from '@otto/ui';
import { Modal } from '../../lib/modal';

/** "Delete for good?" with what it means; Escape or Keep it answers no. */
export function DeleteForGoodDialog(props: {
  name: string;
  kind: 'customer' | 'job';
  deleting: boolean;
  onCancel: () => void;
  onConfirm: () => void | Promise<void>;
}) {
  return (
    <Modal title={`Delete ${props.name} for good?`} role="alertdialog" onClose={props.onCancel}>
      <p>
        {props.kind === 'customer'
          ? 'The customer and their details are removed from Otto. This cannot be undone. A customer who still has jobs cannot be deleted: delete those first.'
          : 'The job and its history are removed from Otto. This cannot be undone.'}
      </p>
      <div className="otto-dialog__actions">
        <Button autoFocus onClick={props.onCancel}>
          Keep it
        </Button>
        <Button variant="danger" loading={props.deleting} onClick={() => void props.onConfirm()}>
          Delete for good
        </Button>
      </div>
    </Modal>
  );
}
