/**
 * The largest backup Otto restores, in bytes (200 MB): `checkBackup` refuses a larger file before
 * opening it, and the restore dialog states it (decision 0130). A check holds two copies of the file
 * in the DB worker's memory; Otto's data at 100 000 customers is far below.
 * @example
 * if (file.size > maxBackupBytes) showError(`A backup can be up to ${maxBackupBytes / 1024 / 1024} MB.`);
 */
export const maxBackupBytes = 200 * 1024 * 1024;
