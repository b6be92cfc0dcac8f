import { Button } from '@otto/ui';
import { useEffect, useState } from 'react';
import { lastBackupAt, requestPersistentStorage, storageReport, type StorageReport } from '../storage-health';

function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

function ago(at: number): string {
  const days = Math.floor((Date.now() - at) / 86_400_000);
  const when = new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return days === 0 ? `today (${when})` : days === 1 ? `yesterday (${when})` : `${days} days ago (${when})`;
}

/** Where the data lives and how safe it is: persistent or not, space used, last backup. */
export function StoragePanel({ backupVersion }: { backupVersion: number }) {
  const [report, setReport] = useState<StorageReport>();
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    void storageReport().then(setReport);
  }, [asked, backupVersion]);
  const backup = lastBackupAt();
  return (
    <dl className="storage-panel" aria-label="Storage">
      <dt>Kept by the browser</dt>
      <dd>
        {report === undefined
          ? 'Checking…'
          : report.persisted
            ? 'Yes: the browser will not clear Otto’s data to free space.'
            : 'Not guaranteed: the browser may clear Otto’s data when the disk runs low. Installing Otto as an app helps.'}
        {report && report.persisted === false && (
          <>
            {' '}
            <Button size="sm" onClick={() => void requestPersistentStorage().then(() => setAsked(true))}>
              Ask to keep it
            </Button>
          </>
        )}
      </dd>
      <dt>Space used</dt>
      <dd>
        {report?.usageBytes === undefined
          ? 'Unknown'
          : `${size(report.usageBytes)}${report.quotaBytes ? ` of the ${size(report.quotaBytes)} this browser allows` : ''}`}
      </dd>
      <dt>Last backup</dt>
      <dd>{backup ? ago(backup) : 'No backup downloaded in this browser yet.'}</dd>
    </dl>
  );
}
