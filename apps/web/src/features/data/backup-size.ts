import { maxBackupBytes } from '@otto/mock-backend/browser';

/** What the restore buttons say about size: "up to 200 MB" (decision 0130). */
export const backupSizeLimit = `up to ${Math.round(maxBackupBytes / 1024 / 1024)} MB`;

/**
 * Why `file` cannot be restored for its size, in words, or undefined when it may be tried. Checked
 * before the file is read, so a huge file is never loaded into the page or the DB worker.
 * @example
 * const tooLarge = backupTooLarge(file); if (tooLarge) setError(tooLarge);
 */
export function backupTooLarge(file: { name: string; size: number }): string | undefined {
  if (file.size <= maxBackupBytes) return undefined;
  const mb = (file.size / 1024 / 1024).toFixed(0);
  return `“${file.name}” is ${mb} MB; a backup can be ${backupSizeLimit}, so it was not restored. Choose a backup that Otto saved. Nothing was changed.`;
}
