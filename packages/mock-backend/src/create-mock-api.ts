import { createSqliteStore, type Database } from '@otto/sqlite-store';
import { customerHandlers } from './customers/customer-handlers';
import { jobHandlers } from './jobs/job-handlers';
import { importHandlers } from './imports/import-handlers';
import { reportHandlers } from './reports/report-handlers';
import { migrations } from './database/migrations';
import { importSeedData, settleSeedDatabase } from './database/seed-data';
import { createLogger } from './logger';
import { createChangeListeners } from './runtime/change-listeners';
import { createRouter } from './runtime/create-router';
import { createSqliteSqlStore } from './sql/sqlite-sql-store';
import { compileExtensionRoutes, migrateExtension } from './runtime/extensions';
import type { MockChangeEvent } from './types';
import { errorResponse } from './runtime/responses';
import type { MockApi, MockApiOptions } from './types';

/** How far back `seedMoment` may be: a page shows its first screen in its first seconds. */
const seedMomentWindowMs = 60_000;

/**
 * Starts the Otto mock backend: opens (or takes) a SQLite store, migrates it to the latest schema,
 * seeds it when empty, and returns an object whose `fetch` answers the API's requests.
 * @example
 * const api = await createMockApi({ seed: { count: 50, fakerSeed: 1 } });
 * const res = await api.fetch(new Request('http://localhost/api/customers'));
 * const customers = await res.json(); // the 10 most recently modified customers
 * await api.close();
 */
export async function createMockApi(options: MockApiOptions = {}): Promise<MockApi> {
  const logger = options.logger ?? createLogger();
  const now = options.now ?? Date.now;
  // The moment a first-start file's dates move to: the caller's, when it may have shown them
  // already (a page that opened a moment ago), else now.
  const seedMoment = () => {
    const at = now();
    const chosen = options.seedMoment;
    return chosen !== undefined && chosen <= at && at - chosen <= seedMomentWindowMs ? chosen : at;
  };
  // Checked before anything opens: a route on one of Otto's paths is a mistake in the code.
  const extensionRoutes = compileExtensionRoutes(options.extensions ?? []);
  const ownsStore = !options.store;
  const store = options.store ?? createSqliteStore({ storage: 'memory', logger });
  const storeInfo = store.isOpen ? store.info : await store.open();
  let seeded = { customers: 0, jobs: 0 };
  try {
    store.migrate(migrations);
    // Your own tables, after Otto's (they may refer to them), versioned apart from Otto's schema.
    const migrateExtensions = () => {
      for (const extension of options.extensions ?? []) migrateExtension(store, extension);
    };
    migrateExtensions();
    // A first-start database file the store was created with (`newDatabase`): only its dates move.
    const settled = store.transaction(() => settleSeedDatabase(store, seedMoment()));
    if (settled) seeded = settled;
    else if (options.seed !== false && customerCount(store) === 0) {
      const seed = options.seed ?? {};
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
        const { seedDatabase } = await import('./database/seed');
        seeded = seedDatabase(store, seed, now());
      }
    }
  } catch (error) {
    if (ownsStore) await store.close();
    throw error;
  }
  // Otto's events and, with extensions, the entities your routes name.
  // A listener's failure must not turn a saved write into an error answer: the router reports it.
  const feed = createChangeListeners(options.onChange, (error) => {
    throw error;
  });
  const publish = (event: MockChangeEvent): void => feed.tell(event);
  const route = createRouter({
    extensionRoutes,
    handlers: [...customerHandlers, ...jobHandlers, ...importHandlers, ...reportHandlers],
    sql: createSqliteSqlStore(store),
    db: store,
    now,
    logger,
    publish,
  });
  let closed = false;

  return {
    store,
    info: { ...storeInfo, seeded, schemaVersion: store.userVersion() },
    async fetch(request) {
      if (closed) {
        return errorResponse(503, { code: 'SERVICE_UNAVAILABLE', message: 'The mock backend has been closed.' });
      }
      return route(request);
    },
    onChange: feed.subscribe,
    async close() {
      closed = true;
      if (ownsStore) await store.close();
    },
  };
}

/** How many customers are not archived (the counter of migration 13), read synchronously at start. */
function customerCount(db: Database): number {
  return db.get<{ n: number }>('SELECT n FROM customer_count WHERE k = 1')?.n ?? 0;
}
