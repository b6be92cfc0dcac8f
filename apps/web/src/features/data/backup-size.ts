import { maxBackupBytes } from '@otto/mock-backend/browser';

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** What the restore buttons say about size: "up to 200 MB" (decision 0130). */
export const backupSizeLimit = `up to ${megabytes(maxBackupBytes)}`;

/**
 * Why `file` cannot be restored for its size, in words, or undefined when it may be tried. Checked
 * before the file is read, so a huge file is never loaded into the page or the DB worker.
 * @example
 * const tooLarge = backupTooLarge(file); if (tooLarge) setError(tooLarge);
 */
export function backupTooLarge(file: { name: string; size: number }): string | undefined {
  if (file.size <= maxBackupBytes) return undefined;
  return `“${file.name}” is ${megabytes(file.size)}; a backup can be ${backupSizeLimit}, so it was not restored. Choose a backup that Otto saved. Nothing was changed.`;
}

/**
 * What the backup button says once the file is downloaded: its size, and, for a database larger
 * than a restore takes (a business with about 150 000 customers or more), that this file cannot be
 * restored by Otto yet, so that nobody counts on it for that (decision 0152).
 * @example
 * setNotice(backupDownloaded(bytes.byteLength)); // "Backup downloaded (540 KB)."
 */
export function backupDownloaded(bytes: number): string {
  const size = bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} KB` : megabytes(bytes);
  if (bytes <= maxBackupBytes) return `Backup downloaded (${size}).`;
  return `Backup downloaded (${size}). It is larger than the ${megabytes(maxBackupBytes)} Otto can restore from a backup, so Otto cannot restore this file yet: it is a complete SQLite database, a copy of your data you can keep and open with SQLite's own tools.`;
}
