import { Button, Notice } from '@otto/ui';
import { useEffect, useState } from 'react';
import type { BackendHandle } from '../../../backend/start-backend';
import { dismissBackupNudge, recordChange, requestPersistentStorage, shouldNudgeBackup } from '../storage-health';

/**
 * Keeps the data safe in the background: asks the browser once per visit to keep Otto's storage,
 * notes every change (from any tab), and, when there are changes and no backup for a week,
 * suggests one (once; "Not now" hides it for a week).
 */
export function BackupNudge({ backend, onBackUp }: { backend: BackendHandle; onBackUp: () => void }) {
  const [show, setShow] = useState(() => shouldNudgeBackup());
  useEffect(() => {
    void requestPersistentStorage();
    return backend.onChange(() => recordChange());
  }, [backend]);
  if (!show) return null;
  return (
    <Notice
      tone="info"
      title="Time for a backup"
      action={
        <>
          <Button
            size="sm"
            variant="primary"
            onClick={() => {
              setShow(false);
              onBackUp();
            }}
          >
            Back up now
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              dismissBackupNudge();
              setShow(false);
            }}
          >
            Not now
          </Button>
        </>
      }
    >
      Your data changed and no backup was downloaded for a week. Otto keeps everything in this browser only: a backup
      file kept elsewhere is what saves it if this device is lost.
    </Notice>
  );
}
