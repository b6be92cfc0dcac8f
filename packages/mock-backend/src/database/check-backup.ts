import {
  StoreError,
  assertSqliteFile,
  createSqliteStore,
  inspectDatabase,
  opfsAvailable,
  openSqliteStore,
  wasInterrupted,
  type DatabaseFileInfo,
  type SqliteStoreOptions,
} from '@otto/sqlite-store';
import { latestSchemaVersion, migrations } from './migrations';
import { ottoSchemaAt, schemaDifferences } from './otto-schema';
import { asBackupBlob, checkBudgetMs, maxBackupBytes, maxInMemoryBackupBytes } from './backup-limits';


export { backupCheckBudgetMs, checkBudgetMs, maxBackupBytes, maxInMemoryBackupBytes } from './backup-limits';

/**
 * The check's page cache: its integrity check looks every index's rows up in the table, in random
 * order, and with SQLite's 2 MB cache a large file is read from OPFS many times over.
 */
const checkPageCacheBytes = 64 * 1024 * 1024;

/** Where a backup is copied to be checked, beside the database's own OPFS directory (its own pool). */
export const backupCheckDirectory = '.otto-check';

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
 * await checkBackup(file, { deadline: Date.now() + 5_000 });
 */
export interface CheckBackupOptions {
  /** `Date.now()` by which the check must be done; past it, the file is refused. @default `checkBudgetMs(size)` from the call */
  deadline?: number;
}

/**
 * Checks that a file is an Otto backup that this version can restore (decision 0130): at most
 * `maxBackupBytes` (`maxInMemoryBackupBytes` where there is no OPFS), a SQLite database that passes
 * `PRAGMA integrity_check`, at a schema version this code knows, whose whole schema (tables,
 * indexes, triggers, views) is exactly Otto's at that version, and that migrates cleanly to the
 * latest schema (tried on a private copy). The copy is a scratch file in OPFS, written a slice at a
 * time from the Blob (a file of any size is never held whole in memory), else in memory. The file
 * is read with SQLite's defensive settings, none of its own code runs before its schema is known
 * to be Otto's, and the whole check stops at its deadline. Throws StoreError with words a person
 * can act on; nothing is changed either way, and the scratch copy is gone when it settles.
 * @example
 * const { customers } = await checkBackup(file); // then restore
 */
export async function checkBackup(source: Uint8Array | Blob, options: CheckBackupOptions = {}): Promise<BackupSummary> {
  const size = source instanceof Uint8Array ? source.byteLength : source.size;
  const deadline = options.deadline ?? Date.now() + checkBudgetMs(size);
  const inOpfs = opfsAvailable().ok;
  await assertSqliteFile(source, { maxBytes: inOpfs ? maxBackupBytes : maxInMemoryBackupBytes });
  const file = asBackupBlob(source);
  const scratch: SqliteStoreOptions = {
    storage: inOpfs ? 'opfs' : 'memory',
    opfsDirectory: backupCheckDirectory,
    filename: 'backup-check.sqlite3',
    snapshotFallback: false,
    logger: { warn: () => {} },
  };
  // First with none of the file's own code allowed to run: its integrity, then its schema.
  const first = createSqliteStore({ ...scratch, replaceWith: file, untrusted: { deadline, pageCacheBytes: checkPageCacheBytes } });
  let schemaVersion: number;
  try {
    schemaVersion = await refuseUnlessOttoSchema(await inspectDatabase(first));
  } catch (error) {
    await first.deleteDatabase().catch(() => undefined);
    throw error;
  }
  await first.close();
  // In OPFS the scratch copy stays for the second look; in memory it is made again.
  const copyOptions: SqliteStoreOptions = { ...scratch, ...(inOpfs ? {} : { replaceWith: file }) };
  // The schema is Otto's own: its triggers may run now (the migrations rely on them), still
  // defensive and under the same deadline.
  const copy = await openSqliteStore({ ...copyOptions, untrusted: { deadline, runSchemaCode: true, pageCacheBytes: checkPageCacheBytes } });
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
    return { schemaVersion, customers: count('customers'), jobs: count('jobs') };
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
    await copy.deleteDatabase();
  }
}

/** Refuses a file whose schema is not Otto's own at a version this code knows; returns that version. */
async function refuseUnlessOttoSchema(info: DatabaseFileInfo): Promise<number> {
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
  return info.userVersion;
}
