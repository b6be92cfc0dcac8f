import { maxBackupBytes } from '@otto/mock-backend/browser';

/**
 * A file's size in words: KB below a megabyte, MB below a gigabyte, else GB to a tenth.
 * @example
 * fileSize(1_331_000_000); // "1.2 GB"
 */
export function fileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1).replace(/\.0$/, '')} GB`;
}

/** What the restore buttons say about size: "up to 2 GB" (decisions 0130, 0152). */
export const backupSizeLimit = `up to ${fileSize(maxBackupBytes)}`;

/**
 * Why `file` cannot be restored for its size, in words, or undefined when it may be tried. Checked
 * before the file is read, so a huge file is never loaded into the page or the DB worker.
 * @example
 * const tooLarge = backupTooLarge(file); if (tooLarge) setError(tooLarge);
 */
export function backupTooLarge(file: { name: string; size: number }): string | undefined {
  if (file.size <= maxBackupBytes) return undefined;
  return `“${file.name}” is ${fileSize(file.size)}; a backup can be ${backupSizeLimit}, so it was not restored. Choose a backup that Otto saved. Nothing was changed.`;
}

/**
 * What the backup button says once the file is downloaded: its size, and, for a database larger
 * than a restore takes (over 2 GB: a business of well over a million customers), that this file
 * cannot be restored by Otto yet, so that nobody counts on it for that (decision 0152).
 * @example
 * setNotice(backupDownloaded(bytes.byteLength)); // "Backup downloaded (540 KB)."
 */
export function backupDownloaded(bytes: number): string {
  const size = fileSize(bytes);
  if (bytes <= maxBackupBytes) return `Backup downloaded (${size}).`;
  return `Backup downloaded (${size}). It is larger than the ${fileSize(maxBackupBytes)} Otto can restore from a backup, so Otto cannot restore this file yet: it is a complete SQLite database, a copy of your data you can keep and open with SQLite's own tools.`;
}

/**
 * What the restore says while it works on a large backup (from 100 MB): its size and about how long
 * it takes (every page is checked, then it is copied in: a million customers' 1.2 GB in under a
 * minute here, decision 0152); empty for a smaller one, which takes seconds.
 * @example
 * restoreTimeNote(1266 * 1024 * 1024); // "1.2 GB: this can take a minute or two. "
 */
export function restoreTimeNote(bytes: number): string {
  if (bytes < 100 * 1024 * 1024) return '';
  return `${fileSize(bytes)}: this can take a minute or two. `;
}
