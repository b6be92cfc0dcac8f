import { deleteSetAsideFile, listSetAsideFiles, readSetAsideFile, type SetAsideFile } from '@otto/sqlite-store/set-aside';
import { Button } from '@otto/ui';
import { useEffect, useState } from 'react';
import { downloadFile } from '../../../lib/download';

function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The database files a recovery set aside (in OPFS, under dated names): each can be downloaded,
 * and deleted for good after a second click. Shows nothing when there are none. `version` reloads
 * the list when it changes.
 */
export function SetAsideFiles({ version = 0, onError }: { version?: number; onError: (message: string) => void }) {
  const [files, setFiles] = useState<SetAsideFile[]>([]);
  const [deleting, setDeleting] = useState<string>();
  const [deleted, setDeleted] = useState(0);
  useEffect(() => {
    let live = true;
    listSetAsideFiles().then(
      (list) => live && setFiles(list),
      () => live && setFiles([]),
    );
    return () => {
      live = false;
    };
  }, [version, deleted]);
  const fail = (e: unknown) => onError(e instanceof Error ? e.message : String(e));
  if (files.length === 0) return null;
  return (
    <section className="recovery__kept" aria-labelledby="set-aside-title">
      <h2 id="set-aside-title">Files set aside</h2>
      <p className="otto-muted">Database files Otto could not open, kept as they were until you delete them.</p>
      <ul>
        {files.map((file) => (
          <li key={file.name}>
            <span className="recovery__kept-name">{file.name}</span>{' '}
            <span className="recovery__kept-meta">
              {size(file.size)}, {new Date(file.lastModified).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
            </span>
            <span className="recovery__kept-actions">
              <Button
                size="sm"
                onClick={() => void readSetAsideFile(file.name).then((bytes) => downloadFile(bytes as Uint8Array<ArrayBuffer>, file.name, 'application/vnd.sqlite3'), fail)}
              >
                Download
              </Button>
              {deleting === file.name ? (
                <>
                  <Button
                    size="sm"
                    variant="danger"
                    onClick={() =>
                      void deleteSetAsideFile(file.name).then(() => {
                        setDeleting(undefined);
                        setDeleted((n) => n + 1);
                      }, fail)
                    }
                  >
                    Delete for good
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => setDeleting(undefined)}>
                    Keep
                  </Button>
                </>
              ) : (
                <Button size="sm" variant="ghost" onClick={() => setDeleting(file.name)} aria-label={`Delete ${file.name}`}>
                  Delete…
                </Button>
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
