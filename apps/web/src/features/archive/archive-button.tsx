import { Button, useToast } from '@otto/ui';
import { ApiClientError } from '../../lib/api-client';
import { useSetArchived } from './archive-api';

interface ArchiveButtonProps {
  kind: 'customer' | 'job';
  id: string;
  /** How the toasts name the record: "Dana Plumber", "Job “Boiler service”". */
  name: string;
  /** Said after "… was archived." (a customer's jobs are kept, say). */
  note?: string;
  /** Once archived (the record is out of lists now): leave its screen, say. */
  onArchived: () => void | Promise<void>;
}

/** Archive on a record's screen, with Undo in the toast for a few seconds. */
export function ArchiveButton({ kind, id, name, note, onArchived }: ArchiveButtonProps) {
  const archive = useSetArchived(kind);
  const toast = useToast();
  const failed = (error: unknown, what: string) =>
    toast.show(error instanceof ApiClientError ? error.message : `The ${kind} could not be ${what}.`, { tone: 'error', kind: 'archive' });
  const restore = () =>
    void archive.mutateAsync({ id, archive: false }).then(
      () => toast.show(`${name} is back.`, { tone: 'success', kind: 'archive' }),
      (error: unknown) => failed(error, 'restored'),
    );
  return (
    <Button
      loading={archive.isPending}
      onClick={async () => {
        try {
          await archive.mutateAsync({ id, archive: true });
        } catch (error) {
          failed(error, 'archived');
          return;
        }
        toast.show(`${name} was archived.${note ? ` ${note}` : ''}`, {
          tone: 'success',
          kind: 'archive',
          durationMs: 8000,
          action: { label: 'Undo', onAction: restore },
        });
        await onArchived();
      }}
    >
      Archive
    </Button>
  );
}
