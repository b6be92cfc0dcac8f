import { Button, Notice, useToast } from '@otto/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { BackendHandle } from '../../../backend/start-backend';
import { downloadCsv, downloadFile, fileDate } from '../../../lib/download';
import { Modal } from '../../../lib/modal';
import { ImportDialog } from '../../import/components/import-dialog';
import { customersCsv, invoicesCsv, jobsCsv } from '../export-csv';
import { recordBackup } from '../storage-health';
import { SetAsideFiles } from './set-aside-files';
import { StoragePanel } from './storage-panel';
import { FileInput, backupFileTypes } from '../../../lib/file-input';
import { backupDownloaded, backupSizeLimit, backupTooLarge, fileSize, restoreTimeNote } from '../backup-size';

type Busy = { what: string; progress?: string } | null;

/** Backup, restore and CSV export of everything Otto holds in this browser. */
export function DataDialog({
  backend,
  onClose,
  onRestored,
}: {
  backend: BackendHandle;
  onClose: () => void;
  /** Called once the data was replaced, so screens showing the old data start over. */
  onRestored: () => void;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const fileInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState<File | null>(null);
  const [backups, setBackups] = useState(0);
  const [importing, setImporting] = useState(false);
  // The button that started the work: its `disabled` while busy drops focus to the page, so focus
  // goes back to it when the work is done.
  const returnFocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (busy || !returnFocus.current) return;
    if (returnFocus.current.isConnected) returnFocus.current.focus();
    returnFocus.current = null;
  }, [busy]);

  async function run(what: string, work: () => Promise<string>) {
    const active = document.activeElement;
    returnFocus.current = active instanceof HTMLElement && active !== document.body ? active : null;
    setBusy({ what });
    setError(undefined);
    try {
      toast.show(await work(), { tone: 'success' });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  }

  const progress = (what: string) => (done: number, total: number) =>
    setBusy({ what, progress: `${done.toLocaleString()} of ${total.toLocaleString()}` });

  const backup = () =>
    run('Preparing the backup', async () => {
      const bytes = await backend.exportDatabase();
      downloadFile(bytes as BlobPart, `otto-backup-${fileDate()}.sqlite3`, 'application/vnd.sqlite3');
      recordBackup();
      setBackups((n) => n + 1);
      return backupDownloaded(bytes.byteLength);
    });

  const exportCsv = (kind: 'customers' | 'jobs' | 'invoices' | 'payments') =>
    run(`Exporting ${kind}`, async () => {
      if (kind === 'invoices' || kind === 'payments') {
        const files = await invoicesCsv(progress(`Exporting ${kind}`));
        downloadCsv(files[kind], `otto-${kind}-${fileDate()}.csv`);
        return `The ${kind} were exported as CSV.`;
      }
      const csv = kind === 'customers' ? await customersCsv(progress(`Exporting ${kind}`)) : await jobsCsv(progress(`Exporting ${kind}`));
      downloadCsv(csv, `otto-${kind}-${fileDate()}.csv`);
      return `The ${kind} were exported as CSV.`;
    });

  const restore = (file: File) =>
    run('Checking and restoring the backup', async () => {
      setPending(null);
      // A large file takes a while (every page is checked, then copied in): say so, and count the seconds.
      const started = Date.now();
      const note = restoreTimeNote(file.size);
      const tick = () => setBusy({ what: 'Checking and restoring the backup', progress: `${note}${Math.round((Date.now() - started) / 1000)} s` });
      const ticking = note ? setInterval(tick, 1000) : undefined;
      if (note) tick();
      try {
        await backend.restoreDatabase(file);
      } finally {
        clearInterval(ticking);
      }
      await queryClient.resetQueries();
      onRestored();
      return `Restored “${file.name}”. Otto now shows the data from that backup.`;
    });

  if (importing) return <ImportDialog onClose={() => setImporting(false)} />;

  if (pending) {
    return (
      <Modal title="Replace all data with this backup?" role="alertdialog" onClose={() => setPending(null)}>
        <p>
          Restoring “{pending.name}” ({fileSize(pending.size)}) replaces every customer and job in Otto with
          the ones in the backup. What you have now is lost unless you download a backup of it first.
        </p>
        <div className="otto-dialog__actions">
          <Button autoFocus onClick={() => setPending(null)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void restore(pending)}>
            Replace my data
          </Button>
        </div>
      </Modal>
    );
  }

  // A device that syncs with a team server (decision 0169): its data comes from the server, and a
  // backup is restored there, never over this copy.
  const syncMode = Boolean(import.meta.env.VITE_OTTO_SYNC_URL?.trim());
  return (
    <Modal title="Backup and export" onClose={busy ? undefined : onClose}>
      <div className="otto-stack">
        <p className="otto-muted">
          {syncMode
            ? 'This device keeps a copy of your team’s data and syncs it with your team server. A backup here is a copy of what this device holds.'
            : 'Otto keeps your data in this browser only. Download a backup now and then, and keep it somewhere safe.'}
        </p>
        <StoragePanel backupVersion={backups} />
        {error && (
          <Notice tone="error" title="That did not work">
            {error}
          </Notice>
        )}
        {busy && (
          <p role="status">
            {busy.what}… {busy.progress ?? ''}
          </p>
        )}
        <div className="data-actions">
          <Button variant="primary" onClick={() => void backup()} disabled={!!busy}>
            Download a backup
          </Button>
          {!syncMode && (
            <Button onClick={() => fileInput.current?.click()} disabled={!!busy}>
              Restore from a backup…
            </Button>
          )}
          <Button onClick={() => void exportCsv('customers')} disabled={!!busy}>
            Export customers (CSV)
          </Button>
          <Button onClick={() => void exportCsv('jobs')} disabled={!!busy}>
            Export jobs (CSV)
          </Button>
          <Button onClick={() => void exportCsv('invoices')} disabled={!!busy}>
            Export invoices (CSV)
          </Button>
          <Button onClick={() => void exportCsv('payments')} disabled={!!busy}>
            Export payments (CSV)
          </Button>
          <Button onClick={() => setImporting(true)} disabled={!!busy}>
            Import from CSV…
          </Button>
        </div>
        <SetAsideFiles onError={setError} />
        {syncMode ? (
          <p className="otto-muted">
            To go back to a backup, restore it on your team server (ask whoever runs it): every device then takes it on its next sync. It is
            not restored on one device, where it would bring back old records over your team’s newer work.
          </p>
        ) : (
          <p className="otto-muted">A backup to restore can be {backupSizeLimit}.</p>
        )}
        <FileInput
          ref={fileInput}
          accept={backupFileTypes}
          aria-label="Backup file to restore"
          hidden
          onFile={(file) => {
            // Too large: refused before it is read, so it never fills the page or the DB worker.
            const tooLarge = backupTooLarge(file);
            if (tooLarge) setError(tooLarge);
            else setPending(file);
          }}
        />
        <div className="otto-dialog__actions">
          <Button onClick={onClose} disabled={!!busy}>
            Close
          </Button>
        </div>
      </div>
    </Modal>
  );
}
