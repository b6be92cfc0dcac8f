import type { DatabaseRecovery } from '@otto/mock-backend/browser';
import { Button, Notice } from '@otto/ui';
import { useEffect, useRef, useState } from 'react';
import { onRecovered, recoverySession } from '../../../backend/recovery-session';
import { downloadFile, fileDate } from '../../../lib/download';
import { SetAsideFiles } from './set-aside-files';
import { FileInput, backupFileTypes } from '../../../lib/file-input';
import { backupSizeLimit, backupTooLarge } from '../backup-size';

const sqliteType = 'application/vnd.sqlite3';

/** What went wrong, for a person: the store's code decides the words; the technical text goes under Details. */
function explain(problem: string | undefined): string {
  if (problem === 'SCHEMA_TOO_NEW') {
    return 'The data on this device was saved by a newer version of Otto than this one. Reloading usually brings the newer version; if it does not, choose one of the ways below.';
  }
  if (problem === 'MIGRATION_FAILED') return 'Otto could not bring the data on this device up to date for this version.';
  if (problem === 'STORAGE_FULL') return 'The device has no room left for Otto to open its data. Free some space, then reload; or choose one of the ways below.';
  return 'The data file on this device is damaged or cannot be read.';
}

type Done = { what: 'restored' | 'fresh' | 'deleted'; setAside?: string };

/**
 * Shown instead of the app when the database cannot be opened (damaged file, newer schema, failed
 * migration): download the file as it is, restore a backup, or start fresh after a confirmation
 * (the old file is kept aside under a dated name until the person deletes it).
 */
export function DatabaseRecoveryScreen({ message, problem }: { message: string; problem: string | undefined }) {
  const [recovery, setRecovery] = useState<DatabaseRecovery>();
  const [openError, setOpenError] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<Done>();
  const [filesVersion, setFilesVersion] = useState(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const refreshFiles = () => setFilesVersion((v) => v + 1);

  useEffect(() => {
    let live = true;
    recoverySession().then(
      (r) => live && setRecovery(r),
      (e: unknown) => live && setOpenError(e instanceof Error ? e.message : String(e)),
    );
    // The debug delete (window.ottoDeleteDatabase) works here too: the screen then says so.
    const stop = onRecovered(() => {
      setDone((d) => d ?? { what: 'deleted' });
      refreshFiles();
    });
    return () => {
      live = false;
      stop();
    };
  }, []);

  async function run(what: string, work: (r: DatabaseRecovery) => Promise<Done | undefined>) {
    if (!recovery) return;
    setBusy(what);
    setError(undefined);
    try {
      const result = await work(recovery);
      if (result) setDone(result);
      refreshFiles();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(undefined);
      setConfirming(false);
    }
  }

  const downloadAsIs = () =>
    run('Reading the file…', async (r) => {
      const bytes = await r.readDatabaseFile();
      if (!bytes) throw new Error('There is no data file on this device to download.');
      downloadFile(bytes as Uint8Array<ArrayBuffer>, `otto-as-it-was-${fileDate()}.sqlite3`, sqliteType);
      return undefined;
    });

  const restore = (file: File) =>
    run('Restoring the backup…', async (r) => {
      const tooLarge = backupTooLarge(file);
      if (tooLarge) throw new Error(tooLarge);
      const { setAside } = await r.restore(file);
      return { what: 'restored', ...(setAside ? { setAside: setAside.name } : {}) };
    });

  const startFresh = () =>
    run('Starting fresh…', async (r) => {
      const { setAside } = await r.startFresh();
      return { what: 'fresh', ...(setAside ? { setAside: setAside.name } : {}) };
    });

  const ready = recovery !== undefined && busy === undefined;
  return (
    <section className="recovery" aria-labelledby="recovery-title">
      <h1 id="recovery-title">{done ? 'Your data is ready again' : 'Otto cannot open your data'}</h1>
      {done ? (
        <Notice
          tone="success"
          title={done.what === 'restored' ? 'The backup was restored' : done.what === 'fresh' ? 'Otto started fresh' : 'The database was deleted'}
          action={
            <Button variant="primary" size="sm" onClick={() => window.location.reload()}>
              Continue to Otto
            </Button>
          }
        >
          {done.setAside ? `The old file was set aside as ${done.setAside}; it stays on this device until you delete it (below, or later under Backup and export). ` : ''}
          Continue to use Otto with {done.what === 'restored' ? 'the restored data' : 'a fresh database'}.
        </Notice>
      ) : (
        <>
          <p className="recovery__lead">{explain(problem)} Nothing has been changed or deleted. Choose what to do:</p>
          <details className="recovery__details">
            <summary>Details</summary>
            <p>{message}</p>
          </details>
        </>
      )}
      {openError && (
        <Notice tone="error" title="Otto could not prepare the recovery">
          {openError}
        </Notice>
      )}
      {recovery && !recovery.problem && !done && (
        <Notice
          tone="info"
          title="The database opens now"
          action={
            <Button size="sm" onClick={() => window.location.reload()}>
              Reload
            </Button>
          }
        >
          Otto could open it this time. Reload to continue.
        </Notice>
      )}
      {error && (
        <Notice tone="error" title="That did not work">
          {error}
        </Notice>
      )}
      {busy && <p role="status">{busy}</p>}

      {!done && (
        <ol className="recovery__ways">
          <li>
            <h2>Download the file as it is</h2>
            <p>Keep a copy of the data exactly as it is now, for someone who can repair it.</p>
            <Button onClick={() => void downloadAsIs()} disabled={!ready}>
              Download the file
            </Button>
          </li>
          <li>
            <h2>Restore a backup</h2>
            <p>Put a backup you downloaded from Otto ({backupSizeLimit}) in its place. The current file is set aside first.</p>
            <label className="recovery__file">
              Backup file
              <FileInput ref={fileInput} accept={backupFileTypes} disabled={!ready} onFile={(file) => void restore(file)} />
            </label>
          </li>
          <li>
            <h2>Start fresh</h2>
            <p>Begin again with Otto’s sample data. The current file is set aside under a dated name, not deleted.</p>
            {confirming ? (
              <div className="recovery__confirm" role="group" aria-label="Confirm starting fresh">
                <p>Start with a fresh database? Everything you entered stays only in the set-aside file.</p>
                <Button variant="danger" onClick={() => void startFresh()} disabled={!ready}>
                  Yes, start fresh
                </Button>{' '}
                <Button variant="ghost" onClick={() => setConfirming(false)}>
                  Cancel
                </Button>
              </div>
            ) : (
              <Button onClick={() => setConfirming(true)} disabled={!ready}>
                Start fresh…
              </Button>
            )}
          </li>
        </ol>
      )}

      <SetAsideFiles version={filesVersion} onError={setError} />
    </section>
  );
}
