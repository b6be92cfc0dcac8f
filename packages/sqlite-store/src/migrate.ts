import { StoreError } from './store-error';
import type { Database, Migration, MigrationResult } from './types';

interface MigratableStore extends Database {
  userVersion(): number;
}

/**
 * Applies the migrations newer than the database's `PRAGMA user_version`, in order, each in its own
 * transaction together with the version bump. A failing migration is rolled back, leaves the
 * database as it was before that migration, and throws 'DB migration failed' with its cause.
 * Stores call it from `store.migrate()`; call it directly for another `Database` driver.
 * @example
 * const result = runMigrations(store, migrations); // { from: 0, to: 2, applied: [1, 2] }
 */
export function runMigrations(store: MigratableStore, migrations: readonly Migration[]): MigrationResult {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new StoreError(
        'MIGRATION_FAILED',
        `DB migration failed: migrations must be numbered 1, 2, 3… without gaps; found ${migration.version} at position ${index + 1}.`,
      );
    }
  });
  const from = store.userVersion();
  const latest = sorted.length;
  if (from > latest) {
    throw new StoreError(
      'SCHEMA_TOO_NEW',
      `The database has schema version ${from}, newer than this app knows (${latest}). Update the app to open it.`,
    );
  }
  const applied: number[] = [];
  for (const migration of sorted.slice(from)) {
    try {
      store.transaction(() => {
        if (typeof migration.up === 'string') store.exec(migration.up);
        else migration.up(store);
        store.exec(`PRAGMA user_version = ${migration.version}`);
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new StoreError(
        'MIGRATION_FAILED',
        `DB migration failed: migration ${migration.version} (${migration.name}) was rolled back: ${reason}`,
        { cause: error },
      );
    }
    applied.push(migration.version);
  }
  return { from, to: store.userVersion(), applied };
}
