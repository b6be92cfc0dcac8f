/**
 * The largest backup Otto restores, in bytes (2 GB). Where the DB worker has OPFS (every browser
 * Otto supports) a backup is copied into a scratch file there a slice at a time and checked and
 * migrated on disk, so its size is bounded by the browser's storage, not by memory; 2 GB is far
 * above a business's data (a million customers and 1.7 million jobs: 1.27 GB) and bounds the copy
 * of the current data the worker keeps in memory while it swaps the files (decision 0152).
 * @example
 * if (file.size > maxBackupBytes) showError(`A backup can be up to ${maxBackupBytes / 1024 / 1024} MB.`);
 */
export const maxBackupBytes = 2 * 1024 * 1024 * 1024;

/**
 * The largest backup checked in memory, where there is no OPFS (Node, a browser without it): the
 * check holds the file in SQLite's WASM memory twice (the file, then a private copy to migrate),
 * and that memory is at most 2 GB (decision 0130).
 * @example
 * const limit = opfsAvailable().ok ? maxBackupBytes : maxInMemoryBackupBytes;
 */
export const maxInMemoryBackupBytes = 200 * 1024 * 1024;

/**
 * How long the check of a backup of up to 100 MB may take before it is stopped and the file
 * refused (decision 0130); a larger one gets `checkBudgetMs(bytes)`.
 * @example
 * showNote(`Checking the file takes at most ${backupCheckBudgetMs / 1000} seconds.`);
 */
export const backupCheckBudgetMs = 20_000;

/**
 * Time per megabyte of backup past the first 100 MB. The integrity check reads every page and looks
 * every index entry up in its table: a million customers' 1.27 GB took 47.6 s in the app's DB
 * worker on the bench machine (about 40 ms a megabyte; decision 0152), so about four times that
 * before a legitimate file is refused on a slower or busier machine.
 */
const checkMsPerMegabyte = 150;

/**
 * How long the check of a backup of `bytes` may take: `backupCheckBudgetMs`, and more for a larger
 * file (a check reads every page: a million customers' 1.27 GB take under a minute here, and may
 * take three).
 * @example
 * const deadline = Date.now() + checkBudgetMs(file.size);
 */
export function checkBudgetMs(bytes: number): number {
  const megabytes = bytes / 1024 / 1024;
  return backupCheckBudgetMs + Math.max(0, megabytes - 100) * checkMsPerMegabyte;
}

/**
 * A backup as a Blob: a `File` as it is, bytes wrapped (a restore hands the DB worker a Blob, read a
 * slice at a time).
 * @example
 * await relay.call('restore-database', asBackupBlob(bytesOrFile));
 */
export function asBackupBlob(backup: Uint8Array | Blob): Blob {
  return backup instanceof Blob ? backup : new Blob([backup as Uint8Array<ArrayBuffer>]);
}
