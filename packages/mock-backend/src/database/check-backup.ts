import { StoreError, inspectDatabaseBytes, openSqliteStore, wasInterrupted } from '@otto/sqlite-store';
import { latestSchemaVersion, migrations } from './migrations';
import { ottoSchemaAt, schemaDifferences } from './otto-schema';
import { maxBackupBytes } from './backup-limits';

export { maxBackupBytes };

/**
 * How long a check may take before it is stopped and the file refused (decision 0130).
 * @example
 * showNote(`Checking the file takes at most ${backupCheckBudgetMs / 1000} seconds.`);
 */
export const backupCheckBudgetMs = 20_000;

/**
 * What a backup holds, once checked.
 * @example
 * const summary: BackupSummary = await checkBackup(bytes); // { schemaVersion: 2, customers: 500, jobs: 950 }
 */
export interface BackupSummary {
  /** The schema version it was written with (older ones are migrated when restored). */
  schemaVersion: number;
  customers: number;
  jobs: number;
}

/**
 * Options of `checkBackup`.
 * @example
 * await checkBackup(bytes, { deadline: Date.now() + 5_000 });
 */
export interface CheckBackupOptions {
  /** `Date.now()` by which the check must be done; past it, the file is refused. @default 20 s from the call */
  deadline?: number;
}

/**
 * Checks that bytes are an Otto backup that this version can restore (decision 0130): at most
 * `maxBackupBytes`, a SQLite database that passes `PRAGMA integrity_check`, at a schema version this
 * code knows, whose whole schema (tables, indexes, triggers, views) is exactly Otto's at that
 * version, and that migrates cleanly to the latest schema (tried on a private copy). The file is
 * read with SQLite's defensive settings, none of its own code runs before its schema is known to be
 * Otto's, and the whole check stops at its deadline. Throws StoreError with words a person can act
 * on; nothing is changed either way.
 * @example
 * const { customers } = await checkBackup(bytes); // then restore
 */
export async function checkBackup(bytes: Uint8Array, options: CheckBackupOptions = {}): Promise<BackupSummary> {
  const deadline = options.deadline ?? Date.now() + backupCheckBudgetMs;
  const info = await inspectDatabaseBytes(bytes, { maxBytes: maxBackupBytes, deadline });
  if (info.userVersion < 1 || !info.objects.includes('customers') || !info.objects.includes('customers_fts')) {
    throw new StoreError(
      'INVALID_DATABASE',
      'This database was not made by Otto (it has no Otto customers table). Choose a backup that Otto saved.',
    );
  }
  if (info.userVersion > latestSchemaVersion) {
    throw new StoreError(
      'SCHEMA_TOO_NEW',
      `This backup was made by a newer version of Otto (schema ${info.userVersion}; this one knows up to ${latestSchemaVersion}). Update Otto, then restore it.`,
    );
  }
  const differences = schemaDifferences(info.schema, await ottoSchemaAt(info.userVersion));
  if (differences.length > 0) {
    const more = differences.length > 3 ? ` (and ${differences.length - 3} more difference${differences.length === 4 ? '' : 's'})` : '';
    throw new StoreError(
      'INVALID_DATABASE',
      `This file's schema is not Otto's (schema ${info.userVersion}), so Otto will not restore it: ${differences.slice(0, 3).join(' ')}${more} It was changed outside Otto. Choose a backup that Otto saved; nothing was changed.`,
    );
  }
  // The schema is Otto's own: its triggers may run now (the migrations rely on them), still
  // defensive and under the same deadline.
  const copy = await openSqliteStore({
    storage: 'memory',
    initialData: bytes,
    logger: { warn: () => {} },
    untrusted: { deadline, runSchemaCode: true },
  });
  try {
    copy.migrate(migrations);
    // Counts and totals rely on every job having its customer (decision 0020); Otto itself never
    // writes a job without one (foreign keys are on), so a backup that has one was edited elsewhere.
    const orphans = copy.get<{ n: number }>('SELECT count(*) AS n FROM jobs WHERE customer_id NOT IN (SELECT id FROM customers)')?.n ?? 0;
    // jobs_status_fts keeps the status above bit 40 of its rowids (migration 3); Otto's ids never
    // get near that, a file edited elsewhere could.
    const huge = copy.get<{ n: number }>('SELECT count(*) AS n FROM jobs WHERE id >= 1099511627776 OR id < 1')?.n ?? 0;
    if (huge > 0) {
      throw new StoreError(
        'INVALID_DATABASE',
        `This backup has ${huge} job${huge === 1 ? '' : 's'} with an id Otto never gives (below 1 or from 2^40 up); it was changed outside Otto. Choose another backup.`,
      );
    }
    if (orphans > 0) {
      throw new StoreError(
        'INVALID_DATABASE',
        `This backup has ${orphans} job${orphans === 1 ? '' : 's'} whose customer is missing, which Otto never saves; it was changed outside Otto. Choose another backup, or give those jobs their customers again.`,
      );
    }
    const count = (table: string) => copy.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)?.n ?? 0;
    return { schemaVersion: info.userVersion, customers: count('customers'), jobs: count('jobs') };
  } catch (error) {
    if (wasInterrupted(error)) {
      throw new StoreError(
        'INVALID_DATABASE',
        'Checking this backup took longer than a check may take, so it was stopped. Nothing was changed.',
        { cause: error },
      );
    }
    throw error;
  } finally {
    await copy.close();
  }
}
