import { Button, Notice, useToast } from '@otto/ui';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiClientError } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { useDeleteForGood, useSetArchived } from './archive-api';
import { DeleteForGoodDialog } from './delete-for-good-dialog';

/** On an archived record's screen: what that means, Restore, and Delete for good. */
export function ArchivedNotice(props: { kind: 'customer' | 'job'; id: string; name: string; archivedDt: number; modified: number }) {
  const restore = useSetArchived(props.kind);
  const remove = useDeleteForGood();
  const toast = useToast();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  return (
    <Notice
      tone="warning"
      title={`${props.name} is archived`}
      action={
        <div className="errand-actions">
          <Button
            size="sm"
            variant="primary"
            loading={restore.isPending}
            onClick={() =>
              void restore.mutateAsync({ id: props.id, archive: false }).then(
                () => toast.show(`${props.name} was restored.`, { tone: 'success', kind: 'archive' }),
                (error: unknown) => toast.show(error instanceof ApiClientError ? error.message : 'It could not be restored.', { tone: 'error', kind: 'archive' }),
              )
            }
          >
            Restore
          </Button>
          <Button size="sm" variant="danger" onClick={() => setConfirming(true)}>
            Delete for good…
          </Button>
          {confirming && (
            <DeleteForGoodDialog
              id={props.id}
              name={props.name}
              kind={props.kind}
              deleting={remove.isPending}
              onCancel={() => setConfirming(false)}
              onConfirm={async () => {
                try {
                  await remove.mutateAsync({ kind: props.kind, id: props.id, modified: props.modified });
                } catch (error) {
                  setConfirming(false);
                  toast.show(error instanceof ApiClientError ? error.message : 'It could not be deleted.', { tone: 'error', kind: 'archive' });
                  return;
                }
                toast.show(`${props.name} was deleted for good.`, { tone: 'success', kind: 'archive' });
                await navigate(paths.archived.href());
              }}
            />
          )}
        </div>
      }
    >
      Archived {formatDateTime(props.archivedDt)}: out of lists, searches and counts until restored.
    </Notice>
  );
}
