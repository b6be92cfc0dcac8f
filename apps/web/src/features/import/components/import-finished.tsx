// The import dialog's last step: what the import did, the skipped rows to download, and its undo.
import type { ImportResult } from '@otto/api-contract';
import { Button, Notice, useToast } from '@otto/ui';
import { useQueryClient } from '@tanstack/react-query';
import { errorWords, undoLastImport } from '../api';
import { count, undoneWords } from '../import-check';
import type { ImportKind } from '../import-core';

/** What a finished import did, with its Undo while it can be undone. */
export function ImportFinished({
  stage,
  kind,
  undo,
  downloadSkipped,
  runUndo,
  onClose,
}: {
  stage: { result: ImportResult; skipped: Map<number, string> };
  kind: ImportKind;
  undo: { busy: boolean; message?: string; error?: string };
  downloadSkipped: () => Promise<void>;
  runUndo: () => Promise<void>;
  onClose: () => void;
}) {
  return (
    <>
      <Notice tone="success" title="Import finished">
        <span data-testid="import-result">
          Imported {count(stage.result.created, kind)}, updated {stage.result.updated.toLocaleString('en-US')}, skipped{' '}
          {stage.skipped.size.toLocaleString('en-US')}.
        </span>
      </Notice>
      {undo.message && <Notice tone="success" title="Import undone">{undo.message}</Notice>}
      {undo.error && (
        <Notice tone="error" title="Could not undo">
          {undo.error}
        </Notice>
      )}
      <div className="otto-dialog__actions">
        {stage.skipped.size > 0 && (
          <Button onClick={() => void downloadSkipped()}>Download the skipped rows (CSV)</Button>
        )}
        {stage.result.importId && !undo.message && (
          <Button variant="danger" onClick={() => void runUndo()} disabled={undo.busy}>
            {undo.busy ? 'Undoing…' : 'Undo this import'}
          </Button>
        )}
        <Button variant="primary" onClick={onClose} disabled={undo.busy}>
          Done
        </Button>
      </div>
    </>
  );
}

/**
 * After Done, a toast that says what the import did, with Undo for a while: the dialog's own Undo
 * is gone once it closes, and a mistake is often seen only in the list behind it.
 */
export function useImportUndoToast(kind: ImportKind): (result: ImportResult) => void {
  const toast = useToast();
  const queryClient = useQueryClient();
  return ({ created, updated }) =>
    toast.show(`Imported ${count(created, kind)}${updated > 0 ? `, updated ${updated.toLocaleString('en-US')}` : ''}.`, {
      tone: 'success',
      kind: 'import',
      durationMs: 15_000,
      action: {
        label: 'Undo',
        onAction: () =>
          void undoLastImport().then(
            async (done) => {
              await queryClient.invalidateQueries();
              toast.show(`Import undone: ${undoneWords(done, kind)}.`, { tone: 'success', kind: 'import' });
            },
            (e: unknown) => toast.show(`The import could not be undone. ${errorWords(e)}`, { tone: 'error', kind: 'import' }),
          ),
      },
    });
}
