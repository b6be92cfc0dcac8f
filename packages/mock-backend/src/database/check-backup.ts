import { StoreError, inspectDatabaseBytes, openSqliteStore } from '@otto/sqlite-store';
import { latestSchemaVersion, migrations } from './migrations';

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
 * Checks that bytes are an Otto backup that this version can restore: a SQLite database that
 * passes `PRAGMA integrity_check`, with Otto's schema at a version this code knows, that migrates
 * cleanly to the latest schema (tried on a private copy). Throws StoreError with words a person
 * can act on; nothing is changed either way.
 * @example
 * const { customers } = await checkBackup(bytes); // then restore
 */
export async function checkBackup(bytes: Uint8Array): Promise<BackupSummary> {
  const info = await inspectDatabaseBytes(bytes);
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
  const copy = await openSqliteStore({ storage: 'memory', initialData: bytes, logger: { warn: () => {} } });
  try {
    // Otto's tables under Otto's names must also have Otto's columns (checked before migrating,
    // so that a lookalike is named as such rather than failing a migration).
    try {
      copy.all('SELECT id, full_name, phone, email, created_dt, modified_dt FROM customers LIMIT 1');
      if (info.userVersion >= 2) {
        copy.all(
          `SELECT id, customer_id, title, description, service_address, status, assignee, scheduled_start_dt,
             scheduled_end_dt, price_cents, created_dt, modified_dt FROM jobs LIMIT 1`,
        );
      }
    } catch (error) {
      throw new StoreError(
        'INVALID_DATABASE',
        `This database was not made by Otto (its tables do not have Otto's columns: ${(error as Error).message}). Choose a backup that Otto saved.`,
      );
    }
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
  } finally {
    await copy.close();
  }
}
