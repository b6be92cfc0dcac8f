import { createSqliteStore, type Database, type SqliteStore, type StoreInfo } from '@otto/sqlite-store';
import { randomEpochSql, syncHorizonNowSql } from '../sync/sync-log';
import { migrations } from '../database/migrations';
import { importSeedData, settleSeedDatabase } from '../database/seed-data';
import { migrateExtension } from '../runtime/extensions';
import type { ApiDatabase } from '../types';
import { createSqliteSqlStore } from './sqlite-sql-store';

/** What an API on SQLite shows of its database. */
export interface SqliteShown {
  store: SqliteStore;
  info: StoreInfo & { seeded: { customers: number; jobs: number }; schemaVersion: number };
}

/**
 * The API's database on SQLite (decision 0122): opens (or takes) a store, migrates it to the latest
 * schema with the extensions' own steps after Otto's, and seeds it when empty. A store passed in
 * stays its owner's: closing the API leaves it open.
 * @example
 * const api = await createMockApi({ store }); // runs on sqliteDatabase(store)
 */
export function sqliteDatabase(given?: SqliteStore): ApiDatabase<SqliteShown> {
  return {
    async open({ seed: seedOption, now, seedMoment, logger, extensions }) {
      const store = given ?? createSqliteStore({ storage: 'memory', logger });
      const storeInfo = store.isOpen ? store.info : await store.open();
      let seeded = { customers: 0, jobs: 0 };
      try {
        // A schema step may fill in data beside the change log: the data is another epoch, so every
        // device takes everything once (decision 0168).
        if (store.migrate(migrations).applied.length > 0) store.run(`UPDATE sync_state SET epoch = ${randomEpochSql.sqlite} WHERE k = 1`);
        // Your own tables, after Otto's (they may refer to them), versioned apart from Otto's schema.
        const migrateExtensions = () => {
          for (const extension of extensions) migrateExtension(store, extension);
        };
        migrateExtensions();
        // A first-start database file the store was created with (`newDatabase`): only its dates move.
        const settled = store.transaction(() => settleSeedDatabase(store, seedMoment()));
        if (settled) seeded = settled;
        else if (seedOption !== false && customerCount(store) === 0) {
          const seed = seedOption ?? {};
          if ('file' in seed) {
            const bytes = typeof seed.file === 'function' ? await seed.file() : seed.file;
            if (!store.replaceDatabase) throw new Error('This store cannot take a whole database file; seed it with { data } instead.');
            await store.replaceDatabase(bytes);
            store.migrate(migrations);
            migrateExtensions();
            seeded = store.transaction(() => settleSeedDatabase(store, seedMoment())) ?? { customers: customerCount(store), jobs: 0 };
          } else if ('data' in seed) {
            // Made ahead of time: no data generator needed here (the browser ships none).
            const data = typeof seed.data === 'function' ? await seed.data() : seed.data;
            const at = now();
            seeded = store.transaction(() => importSeedData(store, data, at));
          } else {
            // faker is loaded only to seed, so that a bundle that never seeds this way leaves it out.
            const { seedDatabase } = await import('../database/seed');
            seeded = seedDatabase(store, seed, now());
          }
        }
        // What seeding wrote is not in the change log: a device that pulled before must take
        // everything (decision 0163).
        if (seeded.customers > 0 || seeded.jobs > 0) store.run(syncHorizonNowSql);
      } catch (error) {
        if (!given) await store.close();
        throw error;
      }
      return {
        sql: createSqliteSqlStore(store),
        extensionDb: store,
        shown: { store, info: { ...storeInfo, seeded, schemaVersion: store.userVersion() } },
        async close() {
          if (!given) await store.close();
        },
      };
    },
  };
}

/** How many customers are not archived (the counter of migration 13), read synchronously at start. */
function customerCount(db: Database): number {
  return db.get<{ n: number }>('SELECT n FROM customer_count WHERE k = 1')?.n ?? 0;
}
